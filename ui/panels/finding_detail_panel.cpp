#include "panels/finding_detail_panel.hpp"

#include <QRegularExpression>
#include <QUrl>
#include <algorithm>
#include <string>
#include <utility>

#include "finding/kind_info.hpp"
#include "models/packets_model.hpp"
#include "panels/incident_detail.hpp"
#include "report/finding_evidence.hpp"
#include "report/finding_summary.hpp"
#include "report/placement_text.hpp"
#include "text/json_text.hpp"

namespace tcpscope::ui {

namespace {

constexpr size_t kMaxRows = 200;  // rows of one evidence table; the rest are counted

QString escaped(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

QString frameLink(uint32_t frame) {
    return QStringLiteral("<a href=\"frame:%1\">%1</a>").arg(frame);
}

// A value the detector wrote as a code name ("lost_segment", "delayed_ack_stall") as a person reads it:
// a kind's title, an analysis flag's Wireshark words, else the words without underscores.
QString plainValue(const std::string& value) {
    if (const std::optional<FindingKind> kind = parseFindingKind(value)) {
        const std::string_view title = findingKindTitle(*kind);
        return QString::fromUtf8(title.data(), static_cast<qsizetype>(title.size()));
    }
    for (int bitIndex = 0; bitIndex < kAnalysisFlagCount; ++bitIndex) {
        if (value == analysisFlagName(analysisFlagAt(bitIndex))) {
            return analysisFlagTitle(analysisFlagAt(bitIndex));
        }
    }
    return QString::fromStdString(value).replace(QLatin1Char('_'), QLatin1Char(' '));
}

// How an evidence figure is read: its label, its unit, and what its value is multiplied by for it.
struct EvidenceUnit {
    QString label;
    QString unit;
    double factor = 1;
};

// An evidence key as a person reads it: "held_ms" -> "Held", ms; "share_of_connection" -> "Share of
// the connection's time", % (0.491 -> 49.1); "frames.syn" -> "Frames: SYN".
EvidenceUnit unitOf(const std::string& key) {
    static const std::pair<const char*, EvidenceUnit> known[] = {
        {"share_of_connection", {QObject::tr("Share of the connection's time"), QStringLiteral("%"), 100}},
        {"peak_share_of_port_range", {QObject::tr("Peak share of the port range in use"), QStringLiteral("%"), 100}},
    };
    for (const auto& [name, unit] : known) {
        if (key == name || key.ends_with(std::string(".") + name)) {
            return unit;
        }
    }
    EvidenceUnit unit;
    QString label = QString::fromStdString(key);
    for (const auto& [suffix, name] :
         {std::pair{"_per_s", "/s"}, std::pair{"_ms", "ms"}, std::pair{"_s", "s"}, std::pair{"_bytes", "bytes"}}) {
        if (label.endsWith(QLatin1String(suffix))) {
            label.chop(static_cast<qsizetype>(std::char_traits<char>::length(suffix)));
            unit.unit = QString::fromLatin1(name);
            break;
        }
    }
    label.replace(QLatin1Char('_'), QLatin1Char(' ')).replace(QLatin1Char('.'), QLatin1String(": "));
    for (const auto& [word, plain] : {std::pair{"syn", "SYN"}, std::pair{"synack", "SYN-ACK"}, std::pair{"ack", "ACK"},
                                      std::pair{"rtt", "RTT"}, std::pair{"rto", "RTO"}, std::pair{"mss", "MSS"},
                                      std::pair{"mtu", "MTU"}, std::pair{"fin", "FIN"}, std::pair{"rst", "RST"}}) {
        label.replace(QRegularExpression(QStringLiteral("\\b%1\\b").arg(QLatin1String(word))), QLatin1String(plain));
    }
    if (!label.isEmpty()) {
        label[0] = label[0].toUpper();
    }
    unit.label = label;
    return unit;
}

// A scalar as text; frame numbers (keys naming frames) become links.
QString scalarText(const std::string& key, const nlohmann::json& value) {
    if (value.is_null()) {
        return QStringLiteral("-");
    }
    if (value.is_string()) {
        return plainValue(value.get<std::string>()).toHtmlEscaped();
    }
    if (value.is_boolean()) {
        return value.get<bool>() ? QObject::tr("yes") : QObject::tr("no");
    }
    if (value.is_number_unsigned() && key.find("frame") != std::string::npos) {
        return frameLink(value.get<uint32_t>());
    }
    if (value.is_number_float()) {
        const EvidenceUnit unit = unitOf(key);
        const double shown = value.get<double>() * unit.factor;
        return QString::number(shown, 'f', unit.factor != 1 || key.ends_with("_ms") || key.ends_with("_per_s") ? 1 : 3);
    }
    if (value.is_array() &&
        std::all_of(value.begin(), value.end(), [](const auto& v) { return v.is_number_unsigned(); })) {
        QStringList frames;
        for (const auto& item : value) {
            frames << (key.find("frame") != std::string::npos ? frameLink(item.get<uint32_t>())
                                                              : QString::number(item.get<uint64_t>()));
        }
        return frames.join(QStringLiteral(", "));
    }
    return escaped(jsonText(value));
}

// An evidence key as a column heading: "Held (ms)", "Share of the connection's time (%)".
QString labelOf(const std::string& key) {
    const EvidenceUnit unit = unitOf(key);
    return unit.unit.isEmpty() ? unit.label : QStringLiteral("%1 (%2)").arg(unit.label, unit.unit);
}

bool isScalarLike(const nlohmann::json& value) {
    return !value.is_object() &&
           (!value.is_array() || std::all_of(value.begin(), value.end(), [](const auto& v) { return v.is_number(); }));
}

// Nested objects become dotted columns ("frames.syn"); arrays of scalars stay one cell.
void flatten(const std::string& prefix, const nlohmann::json& object,
             std::vector<std::pair<std::string, nlohmann::json>>& out) {
    for (const auto& [key, value] : object.items()) {
        const std::string name = prefix.empty() ? key : prefix + "." + key;
        if (value.is_object()) {
            flatten(name, value, out);
        } else if (isScalarLike(value)) {
            out.emplace_back(name, value);
        }
    }
}

QString table(const QStringList& header, const QList<QStringList>& rows) {
    QString html = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr>");
    for (const QString& column : header) {
        html += QStringLiteral("<th align=\"left\">%1</th>").arg(column.toHtmlEscaped());
    }
    html += QStringLiteral("</tr>");
    for (const QStringList& row : rows) {
        html += QStringLiteral("<tr>");
        for (const QString& cell : row) {
            html += QStringLiteral("<td>%1</td>").arg(cell);
        }
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>");
}

// What the finding cost, wall-clock first: the figures of its `impact` in the JSON report.
QString impactTable(const Finding& finding) {
    const FindingImpact& impact = finding.impact;
    if (impact.delayedRequests == 0) {
        return {};
    }
    const auto ms = [](double value) { return QString::number(value, 'f', 1); };
    QString html = QObject::tr("<h4>Impact</h4>");
    html += table({QObject::tr("wall-clock (ms)"), QObject::tr("connections"), QObject::tr("requests delayed"),
                   QObject::tr("median (ms)"), QObject::tr("p99 (ms)"), QObject::tr("worst (ms)"),
                   QObject::tr("connection-time (ms)")},
                  {{ms(impact.wallMs), QString::number(impact.connections), QString::number(impact.delayedRequests),
                    ms(impact.p50Ms), ms(impact.p99Ms), ms(impact.maxMs), ms(impact.connectionMs)}});
    return html;
}

// An array of objects as a table, one column per scalar field met.
QString objectTable(const std::string& name, const nlohmann::json& items) {
    std::vector<std::string> columns;
    std::vector<std::vector<std::pair<std::string, nlohmann::json>>> flatRows;
    for (size_t row = 0; row < std::min(items.size(), kMaxRows); ++row) {
        auto& flat = flatRows.emplace_back();
        flatten({}, items[row], flat);
        for (const auto& [key, value] : flat) {
            if (std::find(columns.begin(), columns.end(), key) == columns.end()) {
                columns.push_back(key);
            }
        }
    }
    QStringList header;
    for (const std::string& column : columns) {
        header << labelOf(column);
    }
    QList<QStringList> rows;
    for (const auto& flat : flatRows) {
        QStringList cells;
        for (const std::string& column : columns) {
            const auto found =
                std::find_if(flat.begin(), flat.end(), [&column](const auto& field) { return field.first == column; });
            cells << (found != flat.end() ? scalarText(column, found->second) : QString());
        }
        rows << cells;
    }
    QString html = QStringLiteral("<h4>%1 (%2)</h4>").arg(labelOf(name).toHtmlEscaped()).arg(items.size());
    html += table(header, rows);
    if (items.size() > kMaxRows) {
        html += QObject::tr("<p>... and %1 more</p>").arg(items.size() - kMaxRows);
    }
    return html;
}

// What the system call trace says about a finding: the verdicts on a delayed-ACK stall finding's
// stalls (FindingEnrichment::straceVerdicts), a port exhaustion's failed connect() calls.
QString straceVerdict(const Finding& finding, const FindingEnrichment& enrichment, bool straceLoaded) {
    if (enrichment.straceVerdicts.empty() && !enrichment.failedConnects) {
        if (finding.kind != FindingKind::DelayedAckStall) {
            return {};
        }
        return straceLoaded ? QObject::tr(
                                  "<p><b>System calls:</b> no traced socket of this connection's sender; "
                                  "the stalls are inferred from the packets only.</p>")
                            : QObject::tr(
                                  "<p><b>System calls:</b> not traced. Attach the sender's strace log "
                                  "(File &gt; Attach strace log) to confirm or refute each stall.</p>");
    }
    if (finding.kind != FindingKind::DelayedAckStall) {
        QString html = QObject::tr("<p><b>System calls:</b></p><ul>");
        if (enrichment.failedConnects) {
            // Kept in a variable: items() of a temporary would outlive it in the loop.
            const nlohmann::json failed = failedConnectsJson(*enrichment.failedConnects);
            for (const auto& [key, value] : failed.items()) {
                html += QStringLiteral("<li>%1: %2</li>").arg(escaped(key), scalarText(key, value));
            }
        }
        return html + QStringLiteral("</ul>");
    }
    const VerdictCounts counts = countVerdicts(enrichment.straceVerdicts);
    const uint32_t confirmed = counts.confirmed;
    const uint32_t refuted = counts.refuted;
    const uint32_t total = counts.confirmed + counts.refuted + counts.untraced;
    const std::string& pattern = counts.pattern;  // of the last traced stall
    const bool nodelaySet = counts.nodelaySet;
    QString verdict;
    if (confirmed > 0) {
        verdict =
            QObject::tr("<b>Confirmed</b> by the system call trace for %1 of %2 stalls").arg(confirmed).arg(total);
    } else if (refuted > 0) {
        verdict = QObject::tr(
                      "<b>Refuted</b> by the system call trace for %1 of %2 stalls: the application wrote "
                      "the late bytes only just before they left")
                      .arg(refuted)
                      .arg(total);
    } else {
        verdict = QObject::tr("<b>Not traced</b>: none of the %1 stalls' writes is in the log").arg(total);
    }
    QString html = QStringLiteral("<p><b>System calls:</b> %1.</p><ul>").arg(verdict);
    if (!pattern.empty()) {
        html += QObject::tr(
                    "<li>Calls around each held write: <b>%1</b> (the second write waits in the kernel "
                    "while the process already waits for the reply)</li>")
                    .arg(escaped(pattern));
    }
    html += nodelaySet ? QObject::tr("<li>TCP_NODELAY <b>was set</b> on the socket</li>")
                       : QObject::tr("<li>TCP_NODELAY was <b>never set</b> on the socket</li>");
    if (refuted > 0 && confirmed > 0) {
        html += QObject::tr("<li>%1 stalls refuted: those bytes were written just before they left</li>").arg(refuted);
    }
    return html + QStringLiteral("</ul>");
}

// One row per stall of a delayed-ACK finding (its evidence's instances), with the trace's verdict
// and write beside the packets (FindingEnrichment::straceVerdicts, one per listed stall).
QString stallTable(const std::vector<StraceVerdict>& verdicts, const nlohmann::json& instances) {
    QList<QStringList> rows;
    for (size_t row = 0; row < std::min(instances.size(), kMaxRows); ++row) {
        const auto& instance = instances[row];
        const StraceVerdict* stall = row < verdicts.size() ? &verdicts[row] : nullptr;
        const bool traced = stall != nullptr && stall->verdict != StraceVerdictKind::NoTrace;
        QString write;
        if (traced) {
            write = QStringLiteral("%1(%2) line %3")
                        .arg(escaped(stall->heldWrite.name))
                        .arg(stall->heldWrite.bytes)
                        .arg(stall->heldWrite.line);
        }
        rows << QStringList{
            scalarText("frames", instance.value("frames", nlohmann::json::array())),
            scalarText("hold_ms", instance.value("hold_ms", nlohmann::json())),
            scalarText("ack_delay_ms", instance.value("ack_delay_ms", nlohmann::json())),
            scalarText("held_bytes", instance.value("held_bytes", nlohmann::json())),
            stall != nullptr ? plainValue(std::string(straceVerdictName(stall->verdict))).toHtmlEscaped() : QString(),
            write,
            scalarText("kernel_hold_ms", traced ? nlohmann::json(stall->kernelHoldMs) : nlohmann::json()),
            traced ? escaped(stall->pattern) : QString()};
    }
    QString html = QObject::tr("<h4>Stalls (%1)</h4>").arg(instances.size());
    html += table({QObject::tr("frames (small, delayed ACK, held)"), QObject::tr("held ms"),
                   QObject::tr("ACK delay ms"), QObject::tr("held bytes"), QObject::tr("verdict"),
                   QObject::tr("held write"), QObject::tr("kernel held ms"), QObject::tr("calls")},
                  rows);
    if (instances.size() > kMaxRows) {
        html += QObject::tr("<p>... and %1 more</p>").arg(instances.size() - kMaxRows);
    }
    return html;
}

// Capture points: the parts of the stalls along the path, the most time first.
QString placementSection(const FindingEnrichment& enrichment) {
    if (!enrichment.placement || enrichment.placement->spans.empty()) {
        return {};
    }
    const FindingPlacement& placement = *enrichment.placement;
    QString html = QObject::tr("<h4>Where the time went (capture points, medians per stall)</h4>");
    if (!placement.waitedAt.empty()) {
        html += QObject::tr("<p>Waited at <b>%1</b> (%2 stalls).</p>")
                    .arg(escaped(placement.waitedAt))
                    .arg(placement.spans.size());
    }
    QStringList rows;
    for (const PlacedPartTotal& part : placedPartTotals(placement)) {
        rows << QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td></tr>")
                    .arg(escaped(placedPartText(part)))
                    .arg(part.spans)
                    .arg(part.totalMs, 0, 'f', 1);
    }
    if (!rows.isEmpty()) {
        html += QObject::tr(
                    "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><th align=\"left\">part "
                    "(median)</th><th>stalls</th><th>total ms</th></tr>%1</table>")
                    .arg(rows.join(QString()));
    }
    for (const LostBetweenTotal& lost : lostBetweenTotals(placement)) {
        html += QObject::tr("<p>Lost between %1 and %2 (%3 stalls).</p>")
                    .arg(escaped(lost.hop.from), escaped(lost.hop.to))
                    .arg(lost.spans);
    }
    return html;
}

}  // namespace

QString findingDetailHtml(const Finding& finding, const FindingEnrichment& enrichment, bool straceLoaded) {
    QString html =
        QStringLiteral("<h3>%1 <small>(%2%3)</small></h3>")
            .arg(escaped(std::string(findingKindTitle(finding.kind))),
                 QString::fromUtf8(severityName(finding.severity).data()),
                 finding.connection == kNoConnection ? QString() : QObject::tr(", flow #%1").arg(finding.connection));
    html += QStringLiteral("<p>%1</p>").arg(escaped(findingSummary(finding, enrichment)));
    // The answer, then what to change, before the evidence.
    html += QObject::tr("<p><b>Fix:</b> %1</p>").arg(escaped(std::string(kindInfo(finding.kind).fix)));
    // Kind-specific evidence is shown as the detector wrote it; the trace's verdicts are typed.
    const nlohmann::json& evidence = finding.evidence;
    html += impactTable(finding);
    html += placementSection(enrichment);
    html += straceVerdict(finding, enrichment, straceLoaded);

    // Scalars and nested objects ("frames.syn") as one table; long series are left to the charts.
    nlohmann::json general = nlohmann::json::object();
    for (const auto& [key, value] : evidence.items()) {
        if (key == "instances_truncated") {
            continue;  // the tables below say "... and N more"
        }
        if (value.is_object() || (isScalarLike(value) && !(value.is_array() && value.size() > 16))) {
            general[key] = value;
        }
    }
    std::vector<std::pair<std::string, nlohmann::json>> fields;
    flatten({}, general, fields);
    QList<QStringList> scalars;
    for (const auto& [key, value] : fields) {
        const EvidenceUnit unit = unitOf(key);
        scalars << QStringList{unit.label.toHtmlEscaped(), scalarText(key, value), unit.unit.toHtmlEscaped()};
    }
    if (!scalars.isEmpty()) {
        html += QObject::tr("<h4>Evidence</h4>");
        html += table({QObject::tr("What"), QObject::tr("Value"), QObject::tr("Unit")}, scalars);
    }
    for (const auto& [key, value] : evidence.items()) {
        if (!value.is_array() || value.empty() || !value.front().is_object()) {
            continue;
        }
        html += finding.kind == FindingKind::DelayedAckStall && key == "instances"
                    ? stallTable(enrichment.straceVerdicts, value)
                    : objectTable(key, value);
    }
    return html;
}

FindingDetailPanel::FindingDetailPanel(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QStringLiteral("frame")) {
            emit frameActivated(url.path().toUInt());
        }
    });
}

void FindingDetailPanel::showFinding(const ResultsPtr& results, const Finding* finding) {
    if (finding == nullptr || !results) {
        clearFinding();
        return;
    }
    setHtml(findingDetailHtml(*finding, results->enrichments().of(finding->id), results->alignment() != nullptr));
}

void FindingDetailPanel::showIncident(const Incident& incident) {
    setHtml(incidentDetailHtml(incident));
}

void FindingDetailPanel::clearFinding() {
    clear();
}

}  // namespace tcpscope::ui
