#include "loading/analysis_results.hpp"

#include <algorithm>

namespace tcpscope::ui {

std::shared_ptr<const AnalysisResults> AnalysisResults::partial(const AnalysisCheckpoint& checkpoint,
                                                                size_t maxConnections) {
    return copyOf(checkpoint, maxConnections);
}

std::shared_ptr<AnalysisResults> AnalysisResults::copyOf(const AnalysisCheckpoint& checkpoint, size_t maxConnections) {
    auto results = std::make_shared<AnalysisResults>();
    const auto& connections = checkpoint.engine.connections();
    const size_t copied = std::min(maxConnections, connections.size());
    for (size_t id = 0; id < copied; ++id) {
        results->connections_.append(connections[id]);
    }
    // A live capture's log keeps the findings it withdrew until the end; ids are positions here.
    const std::vector<Finding>& findings = checkpoint.findings();
    results->findings_.reserve(findings.size());
    for (const Finding& finding : findings) {
        if (!finding.withdrawn) {
            results->findings_.push_back(finding);
            results->findings_.back().id = static_cast<uint32_t>(results->findings_.size() - 1);
        }
    }
    results->counters_ = checkpoint.engine.counters();
    results->firstTsNs_ = checkpoint.engine.firstTsNs();
    results->lastTsNs_ = checkpoint.engine.lastTsNs();
    results->connectionFindings_ = ConnectionFindings::of(results->connections_, results->findings_);
    return results;
}

std::shared_ptr<const AnalysisResults> AnalysisResults::partialWithPackets(const AnalysisCheckpoint& checkpoint,
                                                                           size_t maxConnections,
                                                                           std::optional<IpAddress> populationHost,
                                                                           std::vector<HostPopulation> populations) {
    const std::shared_ptr<AnalysisResults> results = copyOf(checkpoint, maxConnections);
    results->packetsSnapshot_ = checkpoint.engine.packets().snapshot();
    results->populationHost_ = populationHost;
    results->populationsSnapshot_ = std::move(populations);
    return results;
}

std::shared_ptr<const AnalysisResults> AnalysisResults::complete(CaptureAnalysis analysis,
                                                                 std::optional<StraceAlignment> alignment) {
    auto results = std::make_shared<AnalysisResults>();
    results->analysis_ = std::move(analysis);
    results->alignment_ = std::move(alignment);
    results->connectionFindings_ = ConnectionFindings::of(results->connections(), results->findings());
    return results;
}

}  // namespace tcpscope::ui
