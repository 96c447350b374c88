// The findings pane leads with incidents, as `tcpscope-cli analyze` prints them first: on the job
// client that ran out of ports (with its strace log) and on the proxy whose writes Nagle held, the
// window opens on the CLI's first incident, its findings under it; its details give the title, the
// CLI's impact line, the fix, then the chain, the first fix on screen without scrolling at 1366 x 768.
// The window is saved as screenshots/PLATFORM/SAMPLE-incident-1366x768.png.
#include <QFileInfo>
#include <QProcess>
#include <QScrollBar>
#include <QTableView>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTreeView>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "ui/window_test_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace window_test;

namespace {

// What tcpscope-cli prints on stdout for `arguments` (with the strace logs), failing the test if it fails.
std::string cliOutput(QStringList arguments, const QStringList& straceLogs) {
    for (const QString& log : straceLogs) {
        arguments << QStringLiteral("--strace") << log;
    }
    QProcess cli;
    cli.start(QStringLiteral(TCPSCOPE_CLI), arguments);
    REQUIRE(cli.waitForFinished(240'000));
    INFO(cli.readAllStandardError().toStdString());
    REQUIRE(cli.exitCode() == 0);
    return cli.readAllStandardOutput().toStdString();
}

// The first incident as the CLI reports it: its JSON, and the impact line of its text.
struct CliIncident {
    nlohmann::json json;
    QString impactLine;
};

CliIncident firstCliIncident(const QString& capture, const QStringList& straceLogs) {
    const nlohmann::json report = nlohmann::json::parse(cliOutput(
        {QStringLiteral("analyze"), QStringLiteral("--format"), QStringLiteral("json"), capture}, straceLogs));
    REQUIRE(report.contains("incidents"));
    REQUIRE_FALSE(report["incidents"].empty());
    const QString text = QString::fromStdString(cliOutput({QStringLiteral("analyze"), capture}, straceLogs));
    const QString impactLabel = QStringLiteral("    impact: ");
    const qsizetype start = text.indexOf(impactLabel);
    REQUIRE(start >= 0);
    const qsizetype end = text.indexOf(QLatin1Char('\n'), start);
    return {report["incidents"][0], text.mid(start + impactLabel.size(), end - start - impactLabel.size())};
}

QString jsonText(const nlohmann::json& value) {
    return QString::fromStdString(value.get<std::string>());
}

}  // namespace

TEST_CASE("the pane leads with the CLI's first incident, its findings under it and its fix in the details",
          "[ui][window][incidents][samples-screenshot]") {
    struct Case {
        const char* capture;
        QStringList straceLogs;
        const char* shot;
    };
    const Case cases[] = {
        {"seeds/jobs-port-exhaustion.pcap.gz",
         {samplePath("seeds/jobs-port-exhaustion.strace.gz")},
         "jobs-port-exhaustion-incident-1366x768"},
        {"proxy-nagle.pcap", {samplePath("proxy-nagle.strace")}, "proxy-nagle-incident-1366x768"},
    };
    for (const Case& sample : cases) {
        SECTION(sample.capture) {
            const QString capture = samplePath(sample.capture);
            const CliIncident expected = firstCliIncident(capture, sample.straceLogs);
            TestWindow test(true, {1366, 768});
            MainWindow& window = test.window;
            REQUIRE(test.open({capture}, sample.straceLogs));
            REQUIRE(window.results()->alignment() != nullptr);
            auto* findings = window.findChild<QTreeView*>(QStringLiteral("findingsView"));
            auto* details = window.findChild<QTextBrowser*>(QStringLiteral("findingDetail"));
            REQUIRE(findings != nullptr);
            REQUIRE(details != nullptr);
            const auto& model = dynamic_cast<const FindingsModel&>(*findings->model());

            // The first row is the incident, titled as the CLI titles it, with its findings under it.
            const QModelIndex first = model.index(0, FindingsModel::KindColumn);
            const Incident* incident = model.incidentAt(first);
            REQUIRE(incident != nullptr);
            CHECK(first.data().toString() == jsonText(expected.json["title"]));
            std::vector<uint32_t> shown;
            for (int row = 0; row < model.rowCount(first); ++row) {
                const Finding* finding = model.findingAt(model.index(row, 0, first));
                REQUIRE(finding != nullptr);
                shown.push_back(finding->id);
            }
            CHECK(shown == expected.json["findings"].get<std::vector<uint32_t>>());
            // The findings of no incident still follow, grouped by kind.
            for (int row = 1; row < model.rowCount(); ++row) {
                CHECK(model.incidentAt(model.index(row, 0)) == nullptr);
            }

            // The window opens on it; a finding, then the incident again, as a user clicks them.
            CHECK(window.currentIncident() == incident);
            findings->setCurrentIndex(model.index(0, 0, first));
            CHECK(window.currentFinding() != nullptr);
            CHECK_FALSE(details->toPlainText().contains(QStringLiteral("Does not help:")));  // a finding's details
            findings->setCurrentIndex(first);
            REQUIRE(window.currentIncident() == incident);
            // The views follow its first finding when that is of no connection (a story of many connections,
            // whose picture is in the Charts tab), else its finding of a connection that lost the most (the
            // report's worst connection).
            const Finding* lead = nullptr;
            const bool ofConnections = window.results()->findings()[incident->findings.front()].connection != kNoConnection;
            for (const uint32_t id : ofConnections ? incident->findings : std::vector<uint32_t>{}) {
                const Finding& finding = window.results()->findings()[id];
                if (finding.connection != kNoConnection && !finding.frames.empty() &&
                    (lead == nullptr || finding.durationMs > lead->durationMs)) {
                    lead = &finding;
                }
            }
            if (lead != nullptr) {
                CHECK(window.findChild<QTableView*>(QStringLiteral("connectionsView"))
                          ->currentIndex()
                          .data(ConnectionsModel::ConnectionIdRole)
                          .toUInt() == lead->connection);
            }

            // The details: title, impact, fix, chain, what does not help, in that order.
            const QString text = details->toPlainText();
            INFO(text.toStdString());
            const QString firstFix = jsonText(expected.json["fix"]["do"][0]);
            const qsizetype title = text.indexOf(jsonText(expected.json["title"]));
            const qsizetype impact = text.indexOf(expected.impactLine);
            const qsizetype chain = text.indexOf(jsonText(expected.json["chain"][0]["what"]));
            const qsizetype fixLabel = text.indexOf(QStringLiteral("Fix:"));
            const qsizetype fix = text.indexOf(firstFix);
            const qsizetype notHelp = text.indexOf(QStringLiteral("Does not help:"));
            CHECK(title == 0);
            CHECK(impact > title);
            CHECK(fixLabel > impact);
            CHECK(fix > fixLabel);
            CHECK(chain > fix);
            CHECK(notHelp > chain);
            for (const auto& sentence : expected.json["fix"]["does_not_help"]) {
                CHECK(text.indexOf(jsonText(sentence)) > notHelp);
            }

            // Readable as the window opens at 1366 x 768 without scrolling: the title, the impact, the chain
            // and the first fix (the one of the Nagle proxy, the first of four of the job client).
            auto* timeline = window.findChild<TimelineView*>(QStringLiteral("timelineView"));
            REQUIRE(waitFor([timeline]() { return !timeline->isBuilding(); }));  // a large capture's lanes
            QApplication::processEvents();
            CHECK(textOnScreen(*details, expected.impactLine));
            CHECK(textOnScreen(*details, firstFix));
            CHECK(window.grab().toImage().save(screenshotPath(QLatin1String(sample.shot))));
        }
    }
}
