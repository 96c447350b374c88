#include "timeline/timeline_builds.hpp"

#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <vector>

#include "loading/background_pool.hpp"

namespace tcpscope::ui {

namespace {

struct Build {
    TimelineBuildKey key;
    ResultsPtr results;  // held, so that no other results take its address while the build is kept
    QFuture<std::shared_ptr<const TimelineModel>> future;
    size_t views = 0;
};

std::vector<Build>& builds() {
    static std::vector<Build> held;
    return held;
}

std::vector<Build>::iterator buildOf(const TimelineBuildKey& key) {
    return std::find_if(builds().begin(), builds().end(), [&key](const Build& build) { return build.key == key; });
}

QFuture<std::shared_ptr<const TimelineModel>> start(const ResultsPtr& results, TimelineBuildKey key) {
    return QtConcurrent::run(
        &backgroundPool(), [results, key](QPromise<std::shared_ptr<const TimelineModel>>& promise) {
            TimelineModelBuilder builder(*results);
            builder.addPopulation(*results);
            std::shared_ptr<const TimelineModel> lanes;
            if (key.manyLanes && key.manyPackets) {
                // Grouped here, as a view would group them: a million connections' populations took
                // the GUI thread seconds.
                TimelineModel model = builder.lanes();
                model.setGrouping(key.grouping);
                lanes = std::make_shared<const TimelineModel>(std::move(model));
                promise.addResult(lanes);
            }
            builder.addPackets(*results);  // few of them when not `manyPackets`, but every lane has its own
            TimelineModel model = builder.finish();
            // The lanes' grouping again, shared: the same lanes, now with their packets.
            if (!lanes || !model.setGroupingAs(*lanes)) {
                model.setGrouping(key.grouping);
            }
            promise.addResult(std::make_shared<const TimelineModel>(std::move(model)));
        });
}

}  // namespace

QFuture<std::shared_ptr<const TimelineModel>> TimelineBuilds::acquire(const ResultsPtr& results, TimelineBuildKey key) {
    key.results = results.get();
    if (const auto found = buildOf(key); found != builds().end()) {
        ++found->views;
        return found->future;
    }
    builds().push_back({key, results, start(results, key), 1});
    return builds().back().future;
}

void TimelineBuilds::release(const TimelineBuildKey& key) {
    if (const auto found = buildOf(key); found != builds().end() && --found->views == 0) {
        builds().erase(found);
    }
}

std::shared_ptr<const TimelineModel> TimelineBuilds::complete(const AnalysisResults& results) {
    for (const Build& build : builds()) {
        if (build.key.results == &results && build.future.isFinished() && build.future.resultCount() > 0) {
            return build.future.resultAt(build.future.resultCount() - 1);
        }
    }
    return nullptr;
}

bool TimelineBuilds::running() {
    return std::any_of(builds().begin(), builds().end(), [](const Build& build) { return !build.future.isFinished(); });
}

size_t TimelineBuilds::held() {
    return builds().size();
}

}  // namespace tcpscope::ui
