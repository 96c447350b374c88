// The main window on the real Nagle sample, as a user sees it after opening it: its incident is
// listed first with the findings under it, selecting a finding selects its connection, shows its
// packets and lands the sequence diagram on the stall; with the strace log the details say the
// trace confirms it. The keyboard walks findings, packets and stalls. The window is saved as a PNG
// in the build folder.
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>
#include <catch2/catch.hpp>

#include "models/packets_model.hpp"
#include "ui/window_test_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace window_test;

TEST_CASE("the main window opens the Nagle sample with the incident first and everything linked", "[ui][window]") {
    TestWindow test;
    MainWindow& window = test.window;
    REQUIRE(test.open({samplePath("proxy-nagle.pcap")}, {samplePath("proxy-nagle.strace")}));
    REQUIRE(window.results()->alignment() != nullptr);

    auto* findings = window.findChild<QTreeView*>(QStringLiteral("findingsView"));
    REQUIRE(findings != nullptr);
    const QModelIndex incident = findings->model()->index(0, 0);
    CHECK(incident.data().toString().startsWith(QStringLiteral("Proxy 127.0.0.1:3307 holds its small writes")));
    CHECK(findings->model()->rowCount(incident) == 2);  // both sides of the proxy
    // The incident is selected on load, then its first finding: its connection and its packets follow.
    REQUIRE(window.currentIncident() != nullptr);
    window.nextFinding();
    REQUIRE(waitFor([findings]() { return findings->currentIndex().parent().isValid(); }));
    const QString summary = findings->currentIndex().siblingAtColumn(3).data().toString();
    CHECK(summary.contains(QStringLiteral("held back by Nagle")));
    CHECK(summary.contains(QStringLiteral("system call trace confirms")));

    auto* details = window.findChild<QTextBrowser*>(QStringLiteral("findingDetail"));
    REQUIRE(details != nullptr);
    CHECK(details->toPlainText().contains(QStringLiteral("Confirmed by the system call trace")));

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

TEST_CASE("the keyboard walks findings, stalls and packets from the Go menu", "[ui][window][keyboard]") {
    TestWindow test;
    MainWindow& window = test.window;
    REQUIRE(test.open({samplePath("proxy-nagle.pcap")}));
    auto* packets = window.findChild<QTableView*>(QStringLiteral("packetsView"));
    REQUIRE(packets != nullptr);

    QAction* next = actionWithShortcut(window, QKeySequence(Qt::Key_F8));
    QAction* previous = actionWithShortcut(window, QKeySequence(Qt::SHIFT | Qt::Key_F8));
    QAction* nextStall = actionWithShortcut(window, QKeySequence(Qt::Key_F9));
    QAction* nextPacket = actionWithShortcut(window, QKeySequence(Qt::CTRL | Qt::Key_Down));
    QAction* previousPacket = actionWithShortcut(window, QKeySequence(Qt::CTRL | Qt::Key_Up));
    REQUIRE(next != nullptr);
    REQUIRE(previous != nullptr);
    REQUIRE(nextStall != nullptr);
    REQUIRE(nextPacket != nullptr);
    REQUIRE(previousPacket != nullptr);

    REQUIRE(window.currentIncident() != nullptr);  // the window opens on the incident
    next->trigger();                               // its first finding
    REQUIRE(window.currentFinding() != nullptr);
    const uint32_t first = window.currentFinding()->id;
    const uint32_t firstFlow = window.currentFinding()->connection;
    next->trigger();
    REQUIRE(window.currentFinding() != nullptr);
    const uint32_t second = window.currentFinding()->id;
    CHECK(second != first);
    CHECK(window.currentFinding()->connection != firstFlow);  // the other side of the proxy
    next->trigger();
    CHECK(window.currentFinding()->id == first);  // two findings: wraps around
    previous->trigger();
    CHECK(window.currentFinding()->id == second);
    previous->trigger();
    CHECK(window.currentFinding()->id == first);

    // F9 goes from stall to stall of the finding: the packet of its small segment, in the diagram.
    const auto& instances = window.currentFinding()->evidence["instances"];
    REQUIRE(instances.size() > 2);
    nextStall->trigger();
    nextStall->trigger();
    const uint32_t secondStallFrame = instances[1]["frames"][0].get<uint32_t>();
    CHECK(window.showStall(0) == secondStallFrame);
    auto* sequence = window.findChild<SequenceView*>(QStringLiteral("sequenceView"));
    REQUIRE(sequence != nullptr);
    REQUIRE(sequence->selectedArrow() != kNoArrow);
    CHECK(sequence->sequenceLayout().diagram()->arrows()[sequence->selectedArrow()].frame == secondStallFrame);

    const int row = packets->currentIndex().row();
    REQUIRE(row > 0);
    nextPacket->trigger();
    CHECK(packets->currentIndex().row() == row + 1);
    previousPacket->trigger();
    previousPacket->trigger();
    CHECK(packets->currentIndex().row() == row - 1);
}

TEST_CASE("dropped or opened files are sorted by content into captures and strace logs", "[ui][window][strace]") {
    TestWindow test;
    MainWindow& window = test.window;
    LoadCounter& loads = test.loads;
    // An strace log alone needs a capture; a file of neither kind is refused in one line, in a
    // dialog, and the load is said to have failed (what `--screenshot` exits 3 on).
    CHECK_FALSE(window.openFiles({samplePath("proxy-nagle.strace")}));
    CHECK_FALSE(window.openFiles({samplePath("README.md")}));
    CHECK(window.results() == nullptr);
    CHECK(loads.failed == 2);
    const QList<QMessageBox*> dialogs = window.findChildren<QMessageBox*>();
    REQUIRE_FALSE(dialogs.isEmpty());
    CHECK(dialogs.back()->text().contains(QStringLiteral("neither a capture")));
    for (QMessageBox* dialog : dialogs) {
        dialog->close();
    }

    // The log first, the capture second, names do not matter: the content does.
    REQUIRE(window.openFiles({samplePath("proxy-nodelay.strace"), samplePath("proxy-nodelay.pcap")}));
    REQUIRE(loads.waitBeyond(2));
    CHECK(window.request().captures == QStringList{samplePath("proxy-nodelay.pcap")});
    CHECK(window.request().straceLogs == QStringList{samplePath("proxy-nodelay.strace")});
    REQUIRE(window.results()->alignment() != nullptr);
    CHECK(window.results()->findings().empty());  // TCP_NODELAY: nothing held

    // Attaching a log to the open capture analyses it again with the log.
    window.openCaptures({samplePath("proxy-nagle.pcap")});
    REQUIRE(loads.waitBeyond(3));
    CHECK(window.results()->alignment() == nullptr);
    REQUIRE(window.openFiles({samplePath("proxy-nagle.strace")}));
    REQUIRE(loads.waitBeyond(4));
    CHECK(loads.failed == 2);
    CHECK(window.request().captures == QStringList{samplePath("proxy-nagle.pcap")});
    REQUIRE(window.results()->alignment() != nullptr);
    const ResultsPtr results = window.results();
    CHECK_FALSE(results->enrichments().of(results->findings().front().id).straceVerdicts.empty());
}

TEST_CASE("an strace log of another capture is said in a dialog, and the capture is shown without it",
          "[ui][window][strace]") {
    TestWindow test;
    MainWindow& window = test.window;
    REQUIRE(window.openFiles({samplePath("http-keepalive.pcap"), samplePath("proxy-nagle.strace")}));
    REQUIRE(test.loads.waitBeyond(0));
    CHECK(test.loads.failed == 0);
    REQUIRE(window.results() != nullptr);
    CHECK(window.results()->connections().size() > 0);  // the capture's analysis stands
    CHECK(window.results()->alignment() == nullptr);    // without the log's calls
    const QList<QMessageBox*> dialogs = window.findChildren<QMessageBox*>();
    REQUIRE(dialogs.size() == 1);
    CHECK(dialogs.front()->isVisible());
    CHECK(dialogs.front()->text().contains(QStringLiteral("proxy-nagle.strace: does not fit the capture: ")));
    CHECK_FALSE(dialogs.front()->text().contains(QLatin1Char('\n')));
    dialogs.front()->close();
}

TEST_CASE("tcpscope --screenshot on a file it cannot open exits 3 with the reason, at once", "[ui][window]") {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    const QString png = QDir::temp().filePath(QStringLiteral("tcpscope-never.png"));
    for (const QString& file : {QStringLiteral("/nonexistent/capture.pcap"), samplePath("README.md")}) {
        CAPTURE(file.toStdString());
        QProcess gui;
        gui.setProcessEnvironment(environment);
        gui.start(QStringLiteral(TCPSCOPE_GUI), {QStringLiteral("--screenshot"), png, file});
        REQUIRE(gui.waitForFinished(30000));
        CHECK(gui.exitStatus() == QProcess::NormalExit);
        CHECK(gui.exitCode() == 3);
        const QString errors = QString::fromUtf8(gui.readAllStandardError());
        INFO(errors.toStdString());
        CHECK(errors.contains(QStringLiteral("tcpscope: ") + file + QStringLiteral(": offset 0: ")));
        CHECK_FALSE(QFile::exists(png));
    }
}

TEST_CASE("the Help menu opens guides that exist and lists every shortcut of the menus", "[ui][window]") {
    TestWindow test;
    MainWindow& window = test.window;
    QMenu* help = nullptr;
    for (QAction* action : window.menuBar()->actions()) {
        if (action->text() == QStringLiteral("&Help")) {
            help = action->menu();
        }
    }
    REQUIRE(help != nullptr);
    size_t guides = 0;
    QAction* shortcuts = nullptr;
    for (QAction* action : help->actions()) {
        if (const QString name = action->data().toString(); !name.isEmpty()) {
            CHECK(QFileInfo::exists(QStringLiteral(TCPSCOPE_SOURCE_DIR "/docs/") + name));
            ++guides;
        }
        if (action->text() == QStringLiteral("&Keyboard shortcuts")) {
            shortcuts = action;
        }
    }
    CHECK(guides >= 3);
    REQUIRE(shortcuts != nullptr);
    QStringList rows;
    QTimer::singleShot(0, &window, [&window, &rows] {
        auto* dialog = window.findChild<QDialog*>(QStringLiteral("shortcutsDialog"));
        REQUIRE(dialog != nullptr);
        const auto* table = dialog->findChild<QTableWidget*>();
        REQUIRE(table != nullptr);
        for (int row = 0; row < table->rowCount(); ++row) {
            rows << table->item(row, 0)->text() + QStringLiteral(": ") + table->item(row, 1)->text();
        }
        dialog->reject();
    });
    shortcuts->trigger();
    CHECK(rows.contains(QStringLiteral("Go > Next finding: F8")));
    CHECK(rows.contains(QStringLiteral("Help > Guide to the window: F1")));
    CHECK(rows.size() >= 10);
}

TEST_CASE("Go to packet selects the frame's connection and row, or the next TCP packet", "[ui][window][keyboard]") {
    TestWindow test;
    MainWindow& window = test.window;
    REQUIRE(test.open({samplePath("proxy-nagle.pcap")}));
    auto* packets = window.findChild<QTableView*>(QStringLiteral("packetsView"));
    REQUIRE(packets != nullptr);
    const PacketIndex& index = *window.results()->packets();
    const uint32_t frame = index.frame(index.size() / 2);
    window.goToFrame(frame);
    REQUIRE(waitFor([&] { return packets->currentIndex().isValid(); }));
    CHECK(packets->currentIndex().siblingAtColumn(0).data().toUInt() == frame);
    CHECK(packets->currentIndex().data(PacketsModel::PacketIndexRole).toULongLong() == index.positionOfFrame(frame));
    // A frame past the last TCP packet: nothing to show, the selection stays.
    window.goToFrame(index.frame(index.size() - 1) + 1);
    CHECK(packets->currentIndex().siblingAtColumn(0).data().toUInt() == frame);
}
