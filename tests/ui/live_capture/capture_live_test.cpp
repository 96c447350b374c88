// A live capture from the main window, as a user runs it: Capture > Start capture (Ctrl+E), lo
// with a port filter, real write-write-read traffic on loopback; the delayed-ACK stall shows in
// the findings panel while the capture still runs, and after Stop the written file opens with
// the same findings. Needs the right to capture (CI runs as root); skipped otherwise.
#include <QDateTime>
#include <QDir>
#include <QGuiApplication>
#include <QProcess>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <QTreeView>
#include <catch2/catch.hpp>

#include "core/live/live_test_support.hpp"
#include "live_capture/capture_dialog.hpp"
#include "live_capture/live_capture_controller.hpp"
#include "models/findings_model.hpp"
#include "ui/window_test_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace window_test;

namespace {

// Finding rows of `kind` in the findings panel.
int findingsOfKind(const QAbstractItemModel& model, const QString& kind) {
    // Under their kind's row while capturing, under their incident's once the file is reopened.
    const auto& findings = dynamic_cast<const FindingsModel&>(model);
    int count = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex group = model.index(row, 0);
        for (int child = 0; child < model.rowCount(group); ++child) {
            const Finding* finding = findings.findingAt(model.index(child, 0, group));
            const std::string_view title = finding != nullptr ? findingKindTitle(finding->kind) : std::string_view();
            count += QString::fromUtf8(title.data(), static_cast<qsizetype>(title.size())) == kind ? 1 : 0;
        }
    }
    return count;
}

int64_t nowNs() { return QDateTime::currentMSecsSinceEpoch() * 1'000'000; }

// The findings as they compare between the live analysis and the file: kind, flow and frames.
std::vector<std::tuple<FindingKind, uint32_t, std::vector<uint32_t>>> comparable(const FindingList& findings) {
    std::vector<std::tuple<FindingKind, uint32_t, std::vector<uint32_t>>> rows;
    for (const Finding& finding : findings) {
        rows.emplace_back(finding.kind, finding.connection, finding.frames);
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

}  // namespace

TEST_CASE("a live capture on lo shows the delayed-ACK stall while it runs, then its file reopens with the same "
          "findings",
          "[ui][capture-live]") {
    if (!test::mayCapture()) {
        return;
    }
    TestWindow test;
    MainWindow& window = test.window;
    const uint16_t port = test::livePort(71);
    const QString output = QDir::temp().filePath(QStringLiteral("tcpscope-ui-live-%1.pcapng").arg(port));
    QFile::remove(output);

    // Ctrl+E opens the dialog; the user picks lo, types the filter and the file, and starts.
    QAction* start = actionWithShortcut(window, QKeySequence(Qt::CTRL | Qt::Key_E));
    REQUIRE(start != nullptr);
    REQUIRE(start->objectName() == QStringLiteral("startCaptureAction"));
    bool dialogSeen = false;
    QTimer::singleShot(200, [&]() {
        auto* dialog = qobject_cast<CaptureDialog*>(QApplication::activeModalWidget());
        REQUIRE(dialog != nullptr);
        dialogSeen = true;
        auto* list = dialog->findChild<QTreeWidget*>(QStringLiteral("interfaceList"));
        for (int row = 0; row < list->topLevelItemCount(); ++row) {
            if (list->topLevelItem(row)->text(0) == QStringLiteral("lo")) {
                list->setCurrentItem(list->topLevelItem(row));
            }
        }
        dialog->findChild<QLineEdit*>(QStringLiteral("captureFilter"))->setText(QStringLiteral("tcp port %1").arg(port));
        auto* file = dialog->findChild<QLineEdit*>(QStringLiteral("outputFile"));
        file->setText(output);
        emit file->textEdited(output);
        const QString screenshots = QDir::current().filePath(QStringLiteral("screenshots/") + QGuiApplication::platformName());
        QDir().mkpath(screenshots);
        dialog->grab().save(screenshots + QStringLiteral("/capture-dialog.png"));
        dialog->accept();
    });
    start->trigger();
    REQUIRE(dialogSeen);
    LiveCaptureController& capture = window.captureController();
    REQUIRE(capture.isRunning());
    CHECK(capture.settings().filter == QStringLiteral("tcp port %1").arg(port));
    CHECK(window.windowTitle().startsWith(QStringLiteral("Capturing on lo")));

    // 25 requests answered in two writes each: each answer waits ~40 ms for the delayed ACK.
    QProcess traffic;
    traffic.start(QStringLiteral("python3"),
                  {QString::fromStdString(test::kWriteWriteRead), QString::number(port), QStringLiteral("25")});
    REQUIRE(traffic.waitForStarted());

    auto* findingsView = window.findChild<QTreeView*>(QStringLiteral("findingsView"));
    REQUIRE(findingsView != nullptr);
    // The first snapshot that lists the stall, and how long after the packet that completed it.
    int64_t shownAfterMs = -1;
    QObject::connect(&capture, &LiveCaptureController::resultsUpdated, [&](const ResultsPtr& results) {
        for (const Finding& finding : results->findings()) {
            if (finding.kind == FindingKind::DelayedAckStall && shownAfterMs < 0) {
                shownAfterMs = (nowNs() - finding.tsNs) / 1'000'000;
            }
        }
    });
    REQUIRE(waitFor([&]() { return findingsOfKind(*findingsView->model(), QStringLiteral("Nagle + delayed ACK")) > 0; },
                    15000));
    CHECK(capture.isRunning());
    CHECK_FALSE(capture.isStopping());
    INFO("shown " << shownAfterMs << " ms after the packet that completed it");
    CHECK(shownAfterMs >= 0);
    CHECK(shownAfterMs < 1000);
    auto* status = window.findChild<QLabel*>(QStringLiteral("captureStatus"));
    REQUIRE(status != nullptr);
    CHECK(status->isVisible());
    REQUIRE(waitFor([status]() { return !status->text().contains(QStringLiteral(": 0 packets")); }, 3000));
    CHECK(status->text().startsWith(QStringLiteral("Capturing on lo")));

    REQUIRE(traffic.waitForFinished(20000));
    CHECK(traffic.exitCode() == 0);
    // The window while the capture runs, with the stalls of the traffic in it.
    QTest::qWait(500);
    const QString screenshots = QDir::current().filePath(QStringLiteral("screenshots/") + QGuiApplication::platformName());
    window.grab().save(screenshots + QStringLiteral("/live-capture.png"));

    // Stop (Ctrl+E again): the file is opened as any capture, with the same findings.
    const int loadsBefore = test.loads.ready + test.loads.failed;
    auto* stop = window.findChild<QAction*>(QStringLiteral("stopCaptureAction"));
    REQUIRE(stop != nullptr);
    CHECK(stop->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_E));
    REQUIRE(stop->isEnabled());
    CHECK_FALSE(start->isEnabled());
    stop->trigger();
    REQUIRE(test.loads.waitBeyond(loadsBefore));
    REQUIRE(test.loads.failed == 0);
    CHECK_FALSE(capture.isRunning());
    REQUIRE(window.request().captures == QStringList{output});
    CHECK(window.windowTitle().contains(QStringLiteral("(captured on lo)")));
    REQUIRE(window.results()->isComplete());
    const FindingList& reopened = window.results()->findings();
    CHECK(findingsOfKind(*findingsView->model(), QStringLiteral("Nagle + delayed ACK")) == 1);  // one per connection
    CHECK(comparable(reopened) == comparable(capture.finalFindings()));
    CHECK(window.results()->connections().size() == 1);
    QFile::remove(output);
}

TEST_CASE("a live capture on lo shows a receive window held closed as an ongoing finding whose time grows",
          "[ui][capture-live][clock]") {
    if (!test::mayCapture()) {
        return;
    }
    TestWindow test;
    MainWindow& window = test.window;
    const uint16_t port = test::livePort(72);
    CaptureSettings settings;
    settings.device = QStringLiteral("lo");
    settings.filter = QStringLiteral("tcp port %1").arg(port);
    settings.outputPath = QDir::temp().filePath(QStringLiteral("tcpscope-ui-held-window-%1.pcapng").arg(port));
    QFile::remove(settings.outputPath);
    REQUIRE(window.startCapture(settings));

    QProcess traffic;  // the window stays closed for 5 s, with the sender's probes 1.6 and 3.2 s apart
    traffic.start(QStringLiteral("python3"), {QString::fromStdString(test::kHeldWindow), QString::number(port),
                                              QStringLiteral("5")});
    REQUIRE(traffic.waitForStarted());
    auto* findingsView = window.findChild<QTreeView*>(QStringLiteral("findingsView"));
    REQUIRE(findingsView != nullptr);
    // The time lost of the zero window row, as the list shows it ("1.25 s so far").
    const auto timeLost = [findingsView]() {
        const QAbstractItemModel& model = *findingsView->model();
        for (int row = 0; row < model.rowCount(); ++row) {
            const QModelIndex group = model.index(row, 0);
            if (group.data().toString().startsWith(QStringLiteral("Zero window ("))) {
                return model.index(0, FindingsModel::TimeLostColumn, group).data().toString();
            }
        }
        return QString();
    };
    REQUIRE(waitFor([&]() { return timeLost().endsWith(QStringLiteral("so far")); }, 8000));
    const QString first = timeLost();
    const auto seconds = [](const QString& text) {
        const double value = text.section(QLatin1Char(' '), 0, 0).toDouble();
        return text.section(QLatin1Char(' '), 1, 1) == QStringLiteral("s") ? value : value / 1000;
    };
    // It grows by a second while the window stays closed (the analysis clock moves it; a loaded
    // machine may delay the snapshots, hence the wait rather than a fixed pause).
    QString later;
    const bool grew = waitFor(
        [&]() {
            later = timeLost();
            return later.endsWith(QStringLiteral("so far")) && seconds(later) >= seconds(first) + 1.0;
        },
        3500);
    INFO(first.toStdString() << " then " << later.toStdString());
    CHECK(grew);
    const QString screenshots = QDir::current().filePath(QStringLiteral("screenshots/") + QGuiApplication::platformName());
    QDir().mkpath(screenshots);
    window.grab().save(screenshots + QStringLiteral("/live-ongoing-finding.png"));

    REQUIRE(traffic.waitForFinished(20000));
    CHECK(traffic.exitCode() == 0);
    // The window update ended it: the next snapshot shows its final time.
    CHECK(waitFor([&]() { return !timeLost().isEmpty() && !timeLost().endsWith(QStringLiteral("so far")); }, 3000));
    const int loadsBefore = test.loads.ready + test.loads.failed;
    window.stopCapture();
    REQUIRE(test.loads.waitBeyond(loadsBefore));
    CHECK(findingsOfKind(*findingsView->model(), QStringLiteral("Zero window")) == 1);
    QFile::remove(settings.outputPath);
}
