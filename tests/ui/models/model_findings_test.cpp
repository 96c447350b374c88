// The findings model on real samples: a valid model (QAbstractItemModelTester), kinds sorted by
// severity and time lost, and the order next/previous finding walk through; incidents first, with
// their findings under them; the finding details with and without the strace log, an incident's details.
#include <QAbstractItemModelTester>
#include <QTextDocument>
#include <catch2/catch.hpp>

#include "align/stall_confirmation.hpp"
#include "analysis/capture_analysis.hpp"
#include "incident/incident_builder.hpp"
#include "loading/analysis_results.hpp"
#include "models/findings_model.hpp"
#include "panels/finding_detail_panel.hpp"
#include "panels/incident_detail.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;

namespace {

ResultsPtr analysed(const char* capture, const std::vector<std::string>& straceLogs = {}) {
    CaptureAnalysis analysis = analyzeCaptures({std::string(TCPSCOPE_SOURCE_DIR "/samples/") + capture}, {});
    std::optional<StraceAlignment> alignment;
    if (!straceLogs.empty()) {
        std::vector<std::string> paths;
        for (const std::string& log : straceLogs) {
            paths.push_back(std::string(TCPSCOPE_SOURCE_DIR "/samples/") + log);
        }
        alignment = loadStraceLogs(paths, analysis, {});
        confirmFindingsWithSyscalls(analysis, *alignment);
    }
    return AnalysisResults::complete(std::move(analysis), std::move(alignment));
}

// The sample's analysis with its incidents, as the GUI's loader has it (Investigation::incidents).
ResultsPtr withIncidents(const char* capture) {
    CaptureAnalysis analysis = analyzeCaptures({std::string(TCPSCOPE_SOURCE_DIR "/samples/") + capture}, {});
    std::vector<Incident> incidents = buildIncidents(analysis, {});
    return AnalysisResults::complete(std::move(analysis), std::nullopt, {}, std::move(incidents));
}

}  // namespace

TEST_CASE("the findings model of the churn sample is valid and walks kind after kind", "[ui][model]") {
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const ResultsPtr results = analysed("churn-exhaustion.pcap");
    model.setResults(results);
    REQUIRE(model.rowCount() == 3);  // time_wait_churn, port_exhaustion, port_reuse: one finding each
    // Errors first, then by time lost.
    CHECK(model.data(model.index(0, FindingsModel::KindColumn))
              .toString()
              .startsWith(QStringLiteral("Ephemeral port exhaustion")));

    std::vector<uint32_t> forward;
    QModelIndex at;
    for (int step = 0; step < 4; ++step) {
        at = model.neighbourFinding(at, 1);
        REQUIRE(model.findingAt(at) != nullptr);
        forward.push_back(model.findingAt(at)->id);
    }
    CHECK(forward[3] == forward[0]);  // wraps around after the three
    CHECK(model.findingAt(model.index(0, 0, model.index(0, 0)))->id == forward[0]);
    CHECK(model.findingAt(model.index(0, 0, model.index(2, 0)))->id == forward[2]);
    // Backwards from the first: the last one.
    CHECK(model.findingAt(model.neighbourFinding(model.indexOfFinding(forward[0]), -1))->id == forward[2]);
    // From a kind row: its first finding going forward, the one before it going back.
    CHECK(model.findingAt(model.neighbourFinding(model.index(1, 0), 1))->id == forward[1]);
    CHECK(model.findingAt(model.neighbourFinding(model.index(1, 0), -1))->id == forward[0]);

    model.setResults(analysed("http-keepalive.pcap"));  // no finding at all
    CHECK(model.rowCount() == 0);
    CHECK_FALSE(model.neighbourFinding({}, 1).isValid());
}

TEST_CASE("finding details show what the strace log says about each Nagle stall", "[ui][model][strace]") {
    const ResultsPtr plain = analysed("proxy-nagle.pcap");
    const ResultsPtr traced = analysed("proxy-nagle.pcap", {"proxy-nagle.strace"});
    REQUIRE(traced->alignment() != nullptr);
    for (const Finding& finding : traced->findings()) {
        REQUIRE(finding.kind == FindingKind::DelayedAckStall);
        QTextDocument document;
        document.setHtml(findingDetailHtml(finding, traced->enrichments().of(finding.id), true));
        const QString text = document.toPlainText();
        INFO(text.toStdString());
        CHECK(text.contains(QStringLiteral("Confirmed by the system call trace")));
        CHECK(text.contains(QStringLiteral("TCP_NODELAY was never set")));
        CHECK(text.contains(QStringLiteral("epoll_wait")));  // the write, write, wait pattern
        CHECK(text.contains(QStringLiteral("confirmed")));   // a verdict per stall
        CHECK(text.contains(QStringLiteral("line ")));       // the held write's line in the log
    }
    QTextDocument untraced;
    untraced.setHtml(findingDetailHtml(plain->findings().front(), FindingEnrichments::none(), false));
    CHECK(untraced.toPlainText().contains(QStringLiteral("Attach the sender's strace log")));
    CHECK_FALSE(untraced.toPlainText().contains(QStringLiteral("Confirmed")));
}

TEST_CASE("finding details of other kinds list their evidence as tables with frame links", "[ui][model]") {
    const ResultsPtr results = analysed("port-reuse-collision.pcap");
    REQUIRE_FALSE(results->findings().empty());
    const QString html = findingDetailHtml(results->findings().front(), FindingEnrichments::none(), false);
    CHECK(html.contains(QStringLiteral("href=\"frame:")));
    QTextDocument document;
    document.setHtml(html);
    CHECK(document.toPlainText().contains(QStringLiteral("Port reuse")));
    CHECK_FALSE(document.toPlainText().contains(QStringLiteral("strace log")));  // not a delayed-ACK finding
}

TEST_CASE("finding details read in plain words: the fix before the evidence, a labelled table with units",
          "[ui][model]") {
    const ResultsPtr results = analysed("proxy-nagle.pcap");
    REQUIRE_FALSE(results->findings().empty());
    const Finding& finding = results->findings().front();
    QTextDocument document;
    document.setHtml(findingDetailHtml(finding, FindingEnrichments::none(), false));
    const QString text = document.toPlainText();
    INFO(text.toStdString());
    // The answer and the fix first, the evidence after.
    const qsizetype fix = text.indexOf(QStringLiteral("Fix:"));
    const qsizetype evidence = text.indexOf(QStringLiteral("Evidence"));
    CHECK(fix > 0);
    CHECK(evidence > fix);
    // A share as a percentage, under a label that says of what; the table's columns say what and in what unit.
    const double share = finding.evidence["share_of_connection"].get<double>();
    CHECK(text.contains(QStringLiteral("Share of the connection's time")));
    CHECK(text.contains(QString::number(share * 100, 'f', 1)));
    CHECK(text.contains(QStringLiteral("Unit")));
    CHECK_FALSE(text.contains(QStringLiteral("Share of connection")));
    for (const char* code : {"delayed_ack_stall", "share_of_connection", "_ms"}) {
        CHECK_FALSE(text.contains(QLatin1String(code)));
    }
}

TEST_CASE("the findings model leads with incidents, their findings under them", "[ui][model][incidents]") {
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    // The churn sample: one incident of its three findings (churn, the exhaustion it led to, a reuse).
    const ResultsPtr churn = withIncidents("churn-exhaustion.pcap");
    REQUIRE(churn->incidents().size() == 1);
    model.setResults(churn);
    REQUIRE(model.rowCount() == 1);  // no finding outside the incident: no kind row
    const QModelIndex incident = model.index(0, FindingsModel::KindColumn);
    REQUIRE(model.incidentAt(incident) == &churn->incidents().front());
    CHECK(model.findingAt(incident) == nullptr);
    CHECK(incident.data().toString() == QString::fromStdString(churn->incidents().front().title));
    CHECK(model.index(0, FindingsModel::TimeLostColumn).data().toString() == QStringLiteral("60.65 s"));
    REQUIRE(model.rowCount(incident) == 3);
    for (int row = 0; row < 3; ++row) {
        const QModelIndex child = model.index(row, FindingsModel::KindColumn, incident);
        REQUIRE(model.findingAt(child) != nullptr);
        CHECK(model.findingAt(child)->id == churn->incidents().front().findings[static_cast<size_t>(row)]);
        CHECK(model.incidentAt(child) == nullptr);
        // Under an incident a finding row says its kind: the incident's findings are of several.
        CHECK(child.data().toString() == QString::fromUtf8(findingKindTitle(model.findingAt(child)->kind).data()));
    }
    CHECK(model.indexOfIncident(0) == model.index(0, 0));
    CHECK(model.findingAt(model.neighbourFinding(incident, 1))->id == churn->incidents().front().findings.front());

    // Without incidents (a load in progress, a live capture): the kinds as before.
    model.setResults(analysed("churn-exhaustion.pcap"));
    CHECK(model.rowCount() == 3);
    CHECK(model.incidentAt(model.index(0, 0)) == nullptr);
    CHECK_FALSE(model.indexOfIncident(0).isValid());
}

TEST_CASE("incident details give the title, the impact, the fix and the chain, in that order",
          "[ui][model][incidents]") {
    const ResultsPtr churn = withIncidents("churn-exhaustion.pcap");
    REQUIRE_FALSE(churn->incidents().empty());
    const Incident& incident = churn->incidents().front();
    QTextDocument document;
    document.setHtml(incidentDetailHtml(incident));
    const QString text = document.toPlainText();
    INFO(text.toStdString());
    const qsizetype impact = text.indexOf(QStringLiteral("100 connections before the stop, a 60.65 s pause"));
    const qsizetype chain =
        text.indexOf(QStringLiteral("connections closed first, each holding its port in TIME_WAIT"));
    const qsizetype fix = text.indexOf(QStringLiteral("Fix:"));
    const qsizetype range =
        text.indexOf(QStringLiteral("Widen net.ipv4.ip_local_port_range: the ports seen, 40000-40099"));
    const qsizetype notHelp = text.indexOf(QStringLiteral("Does not help:"));
    const qsizetype finTimeout = text.indexOf(QStringLiteral("Lowering net.ipv4.tcp_fin_timeout does not shorten"));
    CHECK(text.startsWith(QString::fromStdString(incident.title)));
    CHECK(impact > 0);
    CHECK(fix > impact);  // the answer and what to change first
    CHECK(range > fix);
    CHECK(chain > range);
    CHECK(notHelp > chain);
    CHECK(finTimeout > notHelp);
}
