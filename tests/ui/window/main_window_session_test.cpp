// What survives a restart (open files, strace logs, selection, zoom, geometry) and the detector
// thresholds dialog, which analyses again and is remembered.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTreeView>
#include <algorithm>
#include <catch2/catch.hpp>

#include "panels/analysis_options_dialog.hpp"
#include "ui/window_test_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace window_test;

namespace {

// A window started again, on the settings the last one left: its files, selection and views.
void reopenLastSession(TestWindow& test) {
    REQUIRE(test.window.reopenLastSession());
    REQUIRE(test.loads.waitBeyond(0));
    QApplication::processEvents();
}

}  // namespace

TEST_CASE("files, strace logs, selection, zoom and geometry survive a restart", "[ui][window][session]") {
    uint32_t chosenFinding = 0;
    ui::TimeRange chosenRange;
    double chosenPixelsPerMs = 0;
    QRect geometry;
    {
        TestWindow test(true, {1300, 850});
        MainWindow& window = test.window;
        REQUIRE(test.open({samplePath("proxy-nagle.pcap")}, {samplePath("proxy-nagle.strace")}));
        window.nextFinding();  // from the incident the window opens on to its first finding,
        window.nextFinding();  // then the second
        REQUIRE(window.currentFinding() != nullptr);
        chosenFinding = window.currentFinding()->id;
        auto* timeline = window.findChild<TimelineView*>(QStringLiteral("timelineView"));
        auto* sequence = window.findChild<SequenceView*>(QStringLiteral("sequenceView"));
        const ui::TimeRange capture = timeline->model().captureRange();
        chosenRange = {capture.startNs + 300'000'000, capture.startNs + 700'000'000};
        timeline->zoomToRange(chosenRange);
        sequence->zoomIn();
        chosenPixelsPerMs = sequence->pixelsPerMs();
        window.findChild<QTabWidget*>(QStringLiteral("viewTabs"))->setCurrentWidget(timeline);
        QApplication::processEvents();  // the timeline pans to the selected packet if it is out of view
        chosenRange = timeline->visibleRange();
        geometry = window.geometry();
        window.close();
    }
    TestWindow test(false, QSize());
    MainWindow& window = test.window;
    reopenLastSession(test);
    CHECK(window.request().captures == QStringList{samplePath("proxy-nagle.pcap")});
    CHECK(window.request().straceLogs == QStringList{samplePath("proxy-nagle.strace")});
    REQUIRE(window.currentFinding() != nullptr);
    CHECK(window.currentFinding()->id == chosenFinding);
    auto* timeline = window.findChild<TimelineView*>(QStringLiteral("timelineView"));
    auto* sequence = window.findChild<SequenceView*>(QStringLiteral("sequenceView"));
    const ui::TimeRange restored = timeline->visibleRange();
    CHECK(std::abs(restored.startNs - chosenRange.startNs) < 1'000'000);
    CHECK(std::abs(restored.endNs - chosenRange.endNs) < 1'000'000);
    CHECK(sequence->pixelsPerMs() == Approx(chosenPixelsPerMs));
    CHECK(window.findChild<QTabWidget*>(QStringLiteral("viewTabs"))->currentWidget() == timeline);
    CHECK(window.size() == geometry.size());

    // Another capture starts afresh: its first incident, not the finding kept for the Nagle sample.
    REQUIRE(test.open({samplePath("churn-exhaustion.pcap")}));
    CHECK(window.request().straceLogs.isEmpty());
    REQUIRE(window.currentIncident() != nullptr);
    CHECK(window.findChild<QTreeView*>(QStringLiteral("findingsView"))->currentIndex().row() == 0);
}

TEST_CASE("a selected incident survives a restart", "[ui][window][session][incidents]") {
    {
        TestWindow test(true, {1300, 850});
        MainWindow& window = test.window;
        REQUIRE(test.open({samplePath("churn-exhaustion.pcap")}));
        // A finding of the incident on a connection (the port reuse): that connection is kept too.
        const std::vector<uint32_t>& ids = window.results()->incidents().at(0).findings;
        const auto onConnection = std::find_if(ids.begin(), ids.end(), [&window](uint32_t id) {
            return window.results()->findings()[id].connection != kNoConnection;
        });
        REQUIRE(onConnection != ids.end());
        window.selectFinding(*onConnection);
        window.selectIncident(0);
        REQUIRE(window.currentIncident() != nullptr);
        window.close();
    }
    TestWindow test(false, QSize());
    MainWindow& window = test.window;
    reopenLastSession(test);
    REQUIRE(window.currentIncident() != nullptr);  // not the connection kept beside it
    CHECK(window.currentIncident()->id == 0);
}

TEST_CASE("the thresholds dialog edits what tcpscope-cli's options set", "[ui][window][thresholds]") {
    freshSettings();
    AnalysisPreferences start;
    start.detectors.delayedAckFloorMs = 55;
    AnalysisOptionsDialog dialog(start);
    auto* floor = dialog.findChild<QDoubleSpinBox*>(QStringLiteral("delayed-ack-floor-ms"));
    auto* timeWait = dialog.findChild<QDoubleSpinBox*>(QStringLiteral("time-wait-s"));
    auto* os = dialog.findChild<QComboBox*>(QStringLiteral("os"));
    auto* tz = dialog.findChild<QLineEdit*>(QStringLiteral("straceTz"));
    REQUIRE(floor != nullptr);
    REQUIRE(timeWait != nullptr);
    REQUIRE(os != nullptr);
    REQUIRE(tz != nullptr);
    CHECK(floor->value() == 55);
    CHECK(timeWait->value() == 60);
    os->setCurrentText(QStringLiteral("windows"));  // as --os windows: its defaults
    CHECK(timeWait->value() == 120);
    CHECK(floor->value() == 30);
    floor->setValue(80);
    tz->setText(QStringLiteral("+02:00"));
    const AnalysisPreferences chosen = dialog.preferences();
    CHECK(chosen.os == QStringLiteral("windows"));
    CHECK(chosen.detectors.delayedAckFloorMs == 80);
    CHECK(chosen.detectors.timeWaitSeconds == 120);
    CHECK(chosen.detectors.portRangeLow == 49152);
    LoadRequest request;
    chosen.applyTo(request);
    CHECK(request.clock.tzOffsetMinutes == 120);
    CHECK(request.options.detectors.delayedAckFloorMs == 80);

    tz->setText(QStringLiteral("CEST"));  // refused: the dialog stays open with the reason
    dialog.accept();
    CHECK(dialog.result() != QDialog::Accepted);
}

TEST_CASE("changed thresholds analyse again and are kept for the next start", "[ui][window][thresholds]") {
    TestWindow test;
    MainWindow& window = test.window;
    REQUIRE(test.open({samplePath("proxy-nagle.pcap")}));
    REQUIRE(window.results()->findings().size() == 2);

    // Stalls are 40 to 47 ms: a 100 ms delayed-ACK floor leaves none.
    AnalysisPreferences strict = window.preferences();
    strict.detectors.delayedAckFloorMs = 100;
    window.setPreferences(strict);
    REQUIRE(test.loads.waitBeyond(1));
    CHECK(window.results()->findings().empty());
    CHECK(window.request().options.detectors.delayedAckFloorMs == 100);
    CHECK(AnalysisPreferences::load(QSettings()) == strict);

    MainWindow next;
    CHECK(next.preferences().detectors.delayedAckFloorMs == 100);
}

TEST_CASE("every label of the thresholds dialog reads without a literal &, each with its field", "[ui][window]") {
    freshSettings();
    AnalysisOptionsDialog dialog(AnalysisPreferences{});
    size_t labels = 0;
    for (const QLabel* label : dialog.findChildren<QLabel*>()) {
        if (label->text().contains(QLatin1Char('&'))) {  // a mnemonic: shown underlined only with a buddy
            CHECK(label->buddy() != nullptr);
            ++labels;
        }
    }
    CHECK(labels >= 4);
}
