#include "panels/incident_detail.hpp"

#include <QObject>
#include <QStringList>
#include <string>
#include <vector>

#include "report/incidents_text.hpp"

namespace tcpscope::ui {

namespace {

QString escaped(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

// Paragraphs and lists with small margins: the title, the impact, the chain and the first fix of a port
// pool's incident fit a 1366 x 768 window's details panel without scrolling.
constexpr auto kParagraph = "<p style=\"margin-top:0px; margin-bottom:6px;\">";
constexpr auto kList = "<ul style=\"margin-top:0px; margin-bottom:6px; -qt-list-indent:1;\">";

QString paragraph(const QString& html) {
    return QLatin1String(kParagraph) + html + QStringLiteral("</p>");
}

QString sentenceList(const QString& label, const std::vector<std::string>& sentences) {
    if (sentences.empty()) {
        return {};
    }
    QString html = QStringLiteral("<p style=\"margin:0px;\"><b>%1</b></p>").arg(label.toHtmlEscaped());
    html += QLatin1String(kList);
    for (const std::string& sentence : sentences) {
        html += QStringLiteral("<li>%1</li>").arg(escaped(sentence));
    }
    return html + QStringLiteral("</ul>");
}

}  // namespace

QString incidentDetailHtml(const Incident& incident) {
    QString html =
        paragraph(QStringLiteral("<b>%1</b> (%2)")
                      .arg(escaped(incident.title), QString::fromUtf8(severityName(incident.severity).data())));
    html += paragraph(escaped(impactLine(incident.impact)));
    // The answer and what to change first: on screen in a 1024 x 700 window; how it came about after.
    html += sentenceList(QObject::tr("Fix:"), incident.fix.doThis);
    QStringList chain;
    for (const ChainStep& step : incident.chain) {
        chain << escaped(step.what);
    }
    if (!chain.isEmpty()) {
        html += paragraph(QObject::tr("<b>Chain:</b> %1").arg(chain.join(QStringLiteral(" &rarr; "))));
    }
    html += sentenceList(QObject::tr("Does not help:"), incident.fix.doesNotHelp);
    return html;
}

}  // namespace tcpscope::ui
