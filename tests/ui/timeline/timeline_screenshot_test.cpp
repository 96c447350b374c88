// Screenshots of the timeline on the Nagle sample, for a person to look at: the whole capture,
// one exchange zoomed in, and a dark palette. Hidden from the normal run; writes
// timeline-*.png into the current directory: `ui_tests "[timeline-screenshot]"`.
#include <QImage>
#include <QPixmap>
#include <catch2/catch.hpp>

#include "analysis/capture_analysis.hpp"
#include "loading/analysis_results.hpp"
#include "timeline/timeline_view.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;

TEST_CASE("timeline screenshots of the Nagle sample", "[.screenshot][timeline-screenshot]") {
    const ResultsPtr results = AnalysisResults::complete(
        analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap"}, AnalysisOptions{}));
    TimelineView view;
    view.resize(1400, 300);
    view.show();
    view.setResults(results);
    REQUIRE(view.grab().save(QStringLiteral("timeline-whole.png")));

    const ui::TimeRange capture = view.model().captureRange();
    view.zoomToRange({capture.startNs + 20'000'000, capture.startNs + 240'000'000});
    REQUIRE(view.grab().save(QStringLiteral("timeline-zoomed.png")));
    view.zoomToRange({capture.startNs + 70'000'000, capture.startNs + 80'000'000});
    REQUIRE(view.grab().save(QStringLiteral("timeline-exchange.png")));

    view.setGrouping(LaneGrouping::ClientAddress);
    view.zoomToFit();
    REQUIRE(view.grab().save(QStringLiteral("timeline-grouped.png")));

    QPalette dark;
    dark.setColor(QPalette::Window, QColor(45, 45, 48));
    dark.setColor(QPalette::WindowText, QColor(220, 220, 220));
    dark.setColor(QPalette::Base, QColor(30, 30, 32));
    dark.setColor(QPalette::AlternateBase, QColor(38, 38, 42));
    dark.setColor(QPalette::Text, QColor(225, 225, 225));
    dark.setColor(QPalette::Button, QColor(53, 53, 56));
    dark.setColor(QPalette::ButtonText, QColor(220, 220, 220));
    dark.setColor(QPalette::Highlight, QColor(42, 130, 218));
    dark.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
    view.setGrouping(LaneGrouping::Connection);
    view.setPalette(dark);
    view.zoomToRange({capture.startNs + 20'000'000, capture.startNs + 240'000'000});
    REQUIRE(view.grab().save(QStringLiteral("timeline-dark.png")));
}

TEST_CASE("timeline screenshots of the population samples", "[.screenshot][timeline-screenshot]") {
    for (const char* sample : {"churn-exhaustion", "backlog-overflow", "port-reuse-collision"}) {
        const ResultsPtr results = AnalysisResults::complete(analyzeCaptures(
            {std::string(TCPSCOPE_SOURCE_DIR "/samples/") + sample + ".pcap"}, AnalysisOptions{}));
        TimelineView view;
        view.resize(1366, 420);
        view.show();
        view.setResults(results);
        REQUIRE(view.grab().save(QStringLiteral("timeline-%1.png").arg(QLatin1String(sample))));
    }
}
