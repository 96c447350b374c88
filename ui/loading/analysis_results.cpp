#include "loading/analysis_results.hpp"

#include <algorithm>
#include <future>

#include "engine/worker_threads.hpp"

namespace tcpscope::ui {

namespace {
// Fewer findings are copied in less time than a thread takes to start.
constexpr size_t kFindingsForTwoThreads = 1024;
}  // namespace

std::shared_ptr<const AnalysisResults> AnalysisResults::partial(const AnalysisCheckpoint& checkpoint,
                                                                size_t maxConnections,
                                                                const DetectorOptions& detectors) {
    return copyOf(checkpoint, maxConnections, detectors);
}

std::shared_ptr<AnalysisResults> AnalysisResults::copyOf(const AnalysisCheckpoint& checkpoint, size_t maxConnections,
                                                         const DetectorOptions& detectors) {
    auto results = std::make_shared<AnalysisResults>();
    results->investigation_.detectors = detectors;
    const FindingStore& findings = checkpoint.findings();
    // A live capture's log keeps the findings it withdrew until the end; ids are positions here.
    std::vector<size_t> kept;
    kept.reserve(findings.size());
    for (size_t position = 0; position < findings.size(); ++position) {
        if (!findings[position].withdrawn) {
            kept.push_back(position);
        }
    }
    results->findings_.growTo(kept.size());
    const auto copyFindings = [&results, &findings, &kept](size_t from, size_t to) {
        for (size_t id = from; id < to; ++id) {
            results->findings_[id] = findings[kept[id]];
            results->findings_[id].id = static_cast<uint32_t>(id);
        }
    };
    // The load waits for the copy, most of which is the findings' evidence: a second thread copies
    // half of them (the loader's reading thread is paused meanwhile, its core free).
    const bool shared = kept.size() >= kFindingsForTwoThreads && secondThreadAllowed();
    const size_t split = shared ? kept.size() / 2 : kept.size();
    std::future<void> otherHalf;
    if (shared) {
        otherHalf = std::async(std::launch::async, copyFindings, split, kept.size());
    }
    const auto& connections = checkpoint.engine.connections();
    const size_t copied = std::min(maxConnections, connections.size());
    for (size_t id = 0; id < copied; ++id) {
        results->connections_.append(connections[id]);
    }
    copyFindings(0, split);
    if (otherHalf.valid()) {
        otherHalf.get();
    }
    results->counters_ = checkpoint.engine.counters();
    results->firstTsNs_ = checkpoint.engine.firstTsNs();
    results->lastTsNs_ = checkpoint.engine.lastTsNs();
    results->timeOrigin_ = checkpoint.engine.timeOrigin();
    results->connectionFindings_ = ConnectionFindings::of(results->connections_, results->findings_);
    return results;
}

std::shared_ptr<const AnalysisResults> AnalysisResults::partialWithPackets(const AnalysisCheckpoint& checkpoint,
                                                                           size_t maxConnections,
                                                                           std::optional<IpAddress> populationHost,
                                                                           std::vector<HostPopulation> populations,
                                                                           const DetectorOptions& detectors) {
    const std::shared_ptr<AnalysisResults> results = copyOf(checkpoint, maxConnections, detectors);
    results->packetsSnapshot_ = checkpoint.engine.packets().snapshot();
    results->populationHost_ = populationHost;
    results->populationsSnapshot_ = std::move(populations);
    return results;
}

std::shared_ptr<const AnalysisResults> AnalysisResults::complete(Investigation investigation) {
    auto results = std::make_shared<AnalysisResults>();
    results->investigation_ = std::move(investigation);
    results->connectionFindings_ = ConnectionFindings::of(results->connections(), results->findings());
    return results;
}

std::shared_ptr<const AnalysisResults> AnalysisResults::complete(CaptureAnalysis analysis,
                                                                 std::optional<StraceAlignment> alignment,
                                                                 const DetectorOptions& detectors,
                                                                 std::vector<Incident> incidents) {
    Investigation investigation;
    investigation.analysis = std::move(analysis);
    investigation.alignment = std::move(alignment);
    investigation.detectors = detectors;
    investigation.incidents = std::move(incidents);
    return complete(std::move(investigation));
}

}  // namespace tcpscope::ui
