// The main window on the real Nagle sample, as a user sees it after opening it: the finding is
// listed first, selecting it selects its connection, shows its packets and lands the sequence
// diagram on the stall. The window is saved as a PNG in the build folder for a person to look at.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>

#include "window/main_window.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;

namespace {

bool waitFor(const std::function<bool()>& condition, int timeoutMs = 30000) {
    QElapsedTimer timer;
    timer.start();
    while (!condition() && timer.elapsed() < timeoutMs) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    return condition();
}

}  // namespace

TEST_CASE("the main window opens the Nagle sample with the finding first and everything linked", "[ui][window]") {
    QStandardPaths::setTestModeEnabled(true);  // keep the user's settings out of it
    QSettings().clear();
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    int ready = 0;
    QObject::connect(&window, &MainWindow::resultsReady, [&ready]() { ++ready; });
    window.openCaptures({QStringLiteral(TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap")});
    REQUIRE(waitFor([&ready]() { return ready > 0; }));

    auto* findings = window.findChild<QTreeView*>(QStringLiteral("findingsView"));
    REQUIRE(findings != nullptr);
    const QModelIndex group = findings->model()->index(0, 0);
    CHECK(group.data().toString().startsWith(QStringLiteral("delayed_ack_stall")));
    CHECK(findings->model()->rowCount(group) == 2);
    // The first finding is selected on load: its connection and its packets follow.
    REQUIRE(waitFor([findings]() { return findings->currentIndex().parent().isValid(); }));
    const QString summary = findings->currentIndex().siblingAtColumn(3).data().toString();
    CHECK(summary.contains(QStringLiteral("held back by Nagle")));

    auto* connections = window.findChild<QTableView*>(QStringLiteral("connectionsView"));
    auto* packets = window.findChild<QTableView*>(QStringLiteral("packetsView"));
    REQUIRE(connections != nullptr);
    REQUIRE(packets != nullptr);
    CHECK(connections->currentIndex().isValid());
    CHECK(packets->model()->rowCount() == 246);  // the 124 + 122 packets of the selected connection

    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("viewTabs"));
    REQUIRE(tabs != nullptr);
    CHECK(tabs->currentWidget()->objectName() == QStringLiteral("sequenceView"));

    QApplication::processEvents();
    const QImage shot = window.grab().toImage();
    CHECK(shot.width() >= 1400);
    CHECK(shot.save(QDir::current().filePath(QStringLiteral("main-window-proxy-nagle.png"))));
}
