#pragma once
#include <QFuture>
#include <memory>

#include "loading/analysis_results.hpp"
#include "timeline/timeline_model.hpp"

namespace tcpscope::ui {

/// What a view asks of a timeline build: the results and how they are built and grouped.
struct TimelineBuildKey {
    const AnalysisResults* results = nullptr;
    bool manyLanes = false;    ///< the lanes come first, alone, then with their packets
    bool manyPackets = false;  ///< the packets are added at all
    LaneGrouping grouping = LaneGrouping::Connection;

    bool operator==(const TimelineBuildKey&) const = default;
};

/// The timeline builds of big captures, one per results snapshot and key, shared by the views
/// that show them: the Timeline tab and the Charts tab's picture draw the same lanes, and at a
/// million connections one build holds gigabytes. A view copies each model it gets
/// (TimelineModel::sharedCopy: the lanes, packets and grouping stay shared). GUI thread only.
class TimelineBuilds {
public:
    /// The build for `key` (of `results`): started on the application's pool for the first view to
    /// ask, the same future for the others, until each has released it. It gives the lanes first
    /// when `key.manyLanes` and `key.manyPackets`, then the lanes with their packets.
    static QFuture<std::shared_ptr<const TimelineModel>> acquire(const ResultsPtr& results, TimelineBuildKey key);
    /// A view no longer shows what it acquired with `key`: the build is dropped once no view does.
    static void release(const TimelineBuildKey& key);
    /// The complete model (lanes with their packets) of a finished build of `results` that a view
    /// holds, or null: what a view that builds at once (an export) takes instead of building it again.
    [[nodiscard]] static std::shared_ptr<const TimelineModel> complete(const AnalysisResults& results);
    /// Builds held now (for tests).
    static size_t held();
    /// Whether a build held is still running.
    [[nodiscard]] static bool running();
};

}  // namespace tcpscope::ui
