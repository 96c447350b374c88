// The fleet window (File > Open fleet) on a real ClickHouse: the churn sample exported from three
// job servers gives the fleet finding, its hosts' findings and, from one of them, that host's flows;
// a server that is not there is said in the status line. The window is saved as
// screenshots/<platform>/fleet-window.png.
#include <QDir>
#include <QGuiApplication>
#include <QSignalSpy>
#include <catch2/catch.hpp>

#include "clickhouse/clickhouse_server.hpp"
#include "fleet_browser/fleet_window.hpp"
#include "support/export_fixtures.hpp"

namespace {

using tcpscope::test::ClickHouseServer;
using tcpscope::test::cliJson;
using tcpscope::test::samplePath;
using tcpscope::test::TempDir;
using tcpscope::ui::FleetWindow;

// Waits until every query the window asked for has been answered.
void waitSettled(FleetWindow& window) {
    QSignalSpy settled(&window, &FleetWindow::settled);
    if (window.loader().running() > 0) {
        REQUIRE(settled.wait(60'000));
    }
    while (window.loader().running() > 0) {
        REQUIRE(settled.wait(60'000));
    }
}

QString cellText(const QStandardItemModel& model, int row, int column) {
    const QStandardItem* item = model.item(row, column);
    return item != nullptr ? item->text() : QString();
}

}  // namespace

TEST_CASE("fleet window: the fleet finding, its hosts' findings and a host's flows", "[fleet]") {
    ClickHouseServer& server = ClickHouseServer::shared();
    TempDir spool("ch-spool-fleet-window");
    for (const char* host : {"job-1", "job-2", "job-3"}) {
        const auto exported = cliJson({"export", samplePath("churn-exhaustion.pcap"), "--host", host, "--to",
                                       server.url("fleet_window"), "--spool", spool.path.string(), "--format", "json"});
        REQUIRE(exported["spooled"] == 0);
    }

    FleetWindow window;
    window.resize(1366, 768);
    window.show();
    window.open(QString::fromStdString(server.url("fleet_window")));
    waitSettled(window);  // the overview, then the first fleet finding's findings it selects
    INFO(window.status().toStdString());

    QStandardItemModel& fleet = window.fleetFindingsModel();
    REQUIRE(fleet.rowCount() >= 1);
    CHECK(cellText(fleet, 0, 0) == "error");
    CHECK(cellText(fleet, 0, 1) == "Ephemeral port exhaustion on 3 hosts");
    CHECK(cellText(fleet, 0, 2) == "127.0.0.1:9000");
    CHECK(cellText(fleet, 0, 3) == "job-1, job-2, job-3");
    CHECK(window.hostsModel().rowCount() == 3);
    CHECK(cellText(window.hostsModel(), 1, 0) == "job-2");
    CHECK(cellText(window.hostsModel(), 1, 1) == "150");  // flows, as tcpscope-cli flows counts them
    CHECK(window.status().contains(QStringLiteral("3 hosts")));

    // The fleet finding's findings: one per host, port exhaustion towards the server.
    QStandardItemModel& findings = window.hostFindingsModel();
    REQUIRE(findings.rowCount() == 3);
    for (int row = 0; row < 3; ++row) {
        CHECK(cellText(findings, row, 3) == "Ephemeral port exhaustion");
        CHECK(cellText(findings, row, 5) == "60.65 s");
    }

    // One host's finding: the flows of that host while its ports were exhausted.
    window.hostFindingsView().selectRow(1);
    waitSettled(window);
    REQUIRE(window.flowsModel().rowCount() > 0);
    CHECK(cellText(window.flowsModel(), 0, 2) == "127.0.0.1:9000");

    // A host: all its findings.
    window.hostsView().selectRow(2);
    waitSettled(window);
    CHECK(findings.rowCount() == 3);
    CHECK(cellText(findings, 0, 1) == "job-3");

    const QString screenshots = QDir::current().filePath(QStringLiteral("screenshots/") + QGuiApplication::platformName());
    QDir().mkpath(screenshots);
    window.hostFindingsView().selectRow(0);
    waitSettled(window);
    CHECK(window.grab().save(screenshots + QStringLiteral("/fleet-window.png")));
}

TEST_CASE("fleet window: a bad URL or a server that is not there is said in one line", "[fleet]") {
    FleetWindow window;
    window.open(QStringLiteral("dir:/tmp/x"));
    CHECK(window.status().contains(QStringLiteral("clickhouse://")));
    CHECK(window.fleetFindingsModel().rowCount() == 0);

    window.open(QStringLiteral("clickhouse://127.0.0.1:1/nothing"));
    waitSettled(window);
    CHECK(window.status().contains(QStringLiteral("127.0.0.1:1")));
    CHECK_FALSE(window.status().contains('\n'));
}
