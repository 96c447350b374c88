#pragma once
#include <memory>
#include <vector>

#include "analysis/capture_analysis.hpp"

namespace tcpscope::ui {

/// An immutable snapshot of an analysis, shared by every model and view: partial while a
/// capture is still loading (connections and findings so far), complete at the end (with the
/// packet index). Models never see the engine itself, which the loading thread keeps changing.
class AnalysisResults {
public:
    /// Copies what the GUI shows of a load in progress. Connections are copied only up to
    /// `maxConnections` (the rest arrive with the complete results).
    static std::shared_ptr<const AnalysisResults> partial(const AnalysisCheckpoint& checkpoint, size_t maxConnections);
    /// Takes over a finished analysis.
    static std::shared_ptr<const AnalysisResults> complete(CaptureAnalysis analysis);

    [[nodiscard]] bool isComplete() const { return analysis_.engine != nullptr; }
    [[nodiscard]] const std::vector<Connection>& connections() const {
        return isComplete() ? analysis_.engine->connections() : connections_;
    }
    [[nodiscard]] const std::vector<Finding>& findings() const {
        return isComplete() ? analysis_.findings : findings_;
    }
    [[nodiscard]] const FrameCounters& counters() const {
        return isComplete() ? analysis_.engine->counters() : counters_;
    }
    /// The complete analysis (packet index, inputs), or null while loading.
    [[nodiscard]] const CaptureAnalysis* analysis() const { return isComplete() ? &analysis_ : nullptr; }
    /// Capture time of the first frame (0 before any).
    [[nodiscard]] int64_t firstTsNs() const { return isComplete() ? analysis_.engine->firstTsNs() : firstTsNs_; }
    [[nodiscard]] int64_t lastTsNs() const { return isComplete() ? analysis_.engine->lastTsNs() : lastTsNs_; }

private:
    CaptureAnalysis analysis_;
    std::vector<Connection> connections_;
    std::vector<Finding> findings_;
    FrameCounters counters_;
    int64_t firstTsNs_ = 0;
    int64_t lastTsNs_ = 0;
};

using ResultsPtr = std::shared_ptr<const AnalysisResults>;

}  // namespace tcpscope::ui
