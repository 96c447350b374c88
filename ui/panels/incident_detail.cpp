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

QString sentenceList(const QString& label, const std::vector<std::string>& sentences) {
    if (sentences.empty()) {
        return {};
    }
    QString html = QStringLiteral("<p><b>%1</b></p><ul>").arg(label.toHtmlEscaped());
    for (const std::string& sentence : sentences) {
        html += QStringLiteral("<li>%1</li>").arg(escaped(sentence));
    }
    return html + QStringLiteral("</ul>");
}

}  // namespace

QString incidentDetailHtml(const Incident& incident) {
    QString html = QStringLiteral("<h3>%1 <small>(%2)</small></h3>")
                       .arg(escaped(incident.title), QString::fromUtf8(severityName(incident.severity).data()));
    html += QStringLiteral("<p>%1</p>").arg(escaped(impactLine(incident.impact)));
    QStringList chain;
    for (const ChainStep& step : incident.chain) {
        chain << escaped(step.what);
    }
    if (!chain.isEmpty()) {
        html += QObject::tr("<p><b>Chain:</b> %1</p>").arg(chain.join(QStringLiteral(" &rarr; ")));
    }
    html += sentenceList(QObject::tr("Fix:"), incident.fix.doThis);
    html += sentenceList(QObject::tr("Does not help:"), incident.fix.doesNotHelp);
    return html;
}

}  // namespace tcpscope::ui
