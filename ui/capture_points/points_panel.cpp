#include "capture_points/points_panel.hpp"

#include <QFileInfo>

#include "points/points_report.hpp"

namespace tcpscope::ui {

namespace {

QString escaped(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

QString cell(const QString& text, bool number = false) {
    return QStringLiteral("<td%1>%2</td>").arg(number ? QStringLiteral(" align=\"right\"") : QString(), text);
}

QString header(const QStringList& columns) {
    QString html = QStringLiteral("<tr>");
    for (const QString& column : columns) {
        html += QStringLiteral("<th align=\"left\">%1</th>").arg(column.toHtmlEscaped());
    }
    return html + QStringLiteral("</tr>");
}

QString delayCell(const std::optional<OneWayDelay>& delay) {
    if (!delay) {
        return cell(QObject::tr("unknown"));
    }
    return cell(QObject::tr("%1 ms / %2 ms (%3)")
                    .arg(delay->medianMs, 0, 'f', 3)
                    .arg(delay->p99Ms, 0, 'f', 3)
                    .arg(delay->packets),
                true);
}

}  // namespace

QString pointsHtml(const CapturePointsSummary& summary) {
    const QString reference = summary.points.empty() ? QString() : escaped(summary.points.front().point.name);
    QString html = QObject::tr("<h3>Capture points (%1), each connection analysed once, on %2's clock</h3>")
                       .arg(summary.points.size())
                       .arg(reference);
    html += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">");
    html += header({QObject::tr("point"), QObject::tr("files"), QObject::tr("packets"), QObject::tr("TCP analysed"),
                    QObject::tr("connections"), QObject::tr("clock against the reference")});
    for (const PointSummary& point : summary.points) {
        QStringList files;
        for (const std::string& file : point.point.files) {
            files << QFileInfo(QString::fromStdString(file)).fileName().toHtmlEscaped();
        }
        html += QStringLiteral("<tr>") + cell(QStringLiteral("<b>%1</b>").arg(escaped(point.point.name))) +
                cell(files.join(QStringLiteral("<br>"))) + cell(QString::number(point.frames), true) +
                cell(QObject::tr("%1 of %2").arg(point.analysedSegments).arg(point.tcpSegments), true) +
                cell(QString::number(point.connectionsAnalysed), true) + cell(escaped(pointClockText(point))) +
                QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
    if (summary.hops.empty()) {
        return html + QObject::tr("<p>No two points saw a segment in common.</p>");
    }
    html += QObject::tr("<h4>Hops: one-way delays</h4>");
    html += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">");
    html +=
        header({QObject::tr("hop"), QObject::tr("matched"), QObject::tr("way"), QObject::tr("median / p99 (packets)"),
                QObject::tr("way back"), QObject::tr("median / p99 (packets)")});
    for (const PointLink& hop : summary.hops) {
        const QString from = escaped(summary.points[hop.first].point.name);
        const QString to = escaped(summary.points[hop.second].point.name);
        html += QStringLiteral("<tr>") + cell(QStringLiteral("%1 \u2194 %2").arg(from, to)) +
                cell(QString::number(hop.fit.matched), true) + QStringLiteral("<td>%1 \u2192 %2</td>").arg(from, to) +
                delayCell(hop.fit.firstToSecond) + QStringLiteral("<td>%1 \u2192 %2</td>").arg(to, from) +
                delayCell(hop.fit.secondToFirst) + QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
    html += QObject::tr("<p>Offsets assume the same one-way delay both ways, as NTP does.</p>");
    return html;
}

PointsPanel::PointsPanel(QWidget* parent) : QTextBrowser(parent) {}

void PointsPanel::showResults(const ResultsPtr& results) {
    if (!results || results->points() == nullptr) {
        clear();
        return;
    }
    setHtml(pointsHtml(*results->points()));
}

}  // namespace tcpscope::ui
