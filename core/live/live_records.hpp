#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "live/live_analysis.hpp"
#include "records/analysis_records.hpp"
#include "records/record_sink.hpp"
#include "records/record_source.hpp"

namespace tcpscope {

/// The tcpscope-record/1 records of a live capture, made while it runs (docs/records.md, "Live
/// capture"): a `flow` when a connection generation has ended (closed or reset and quiet for a
/// moment, or retired) and at the end for the others; a `finding` when a detector makes one, again
/// with the next `revision` when it grows or ends (at most once a second), and a final revision at
/// the end (withdrawn when the packets took it back); `series` rows per second once the second is
/// over. Runs on the analysis thread: `sink` must not wait (a QueuedRecordSink).
class LiveRecords : public LiveObserver {
public:
    LiveRecords(RecordSource source, RecordSink& sink);

    void onSegment(const SegmentEvent& event) override;
    void onRetire(const Connection& connection) override;
    void onTick(const LiveResults& results) override;
    void onFinished(const LiveResults& results) override;
    /// The series rows still to send, from the finished analysis (its detectors hand their series
    /// to it at the end). Call once, after the session finished.
    void finishSeries(const CaptureAnalysis& analysis);

    /// Records made so far, by type (finding revisions each count).
    [[nodiscard]] const RecordCounts& counts() const { return counts_; }

private:
    // What was last sent of one finding (by its id in the live log).
    struct SentFinding {
        bool sent = false;
        bool closed = false;  // its final record is sent
        uint32_t revision = 0;
        uint32_t spans = 0;
        uint64_t requests = 0;
        uint32_t connections = 0;
        double durationMs = 0;
        bool ongoing = false;
        bool provisional = false;
        Severity severity = Severity::Info;
    };
    enum class FlowState : uint8_t { Open, MayHaveEnded, Retired, Sent };

    void sendFindings(const LiveResults& results, bool atEnd);
    void sendFinding(const Finding& finding, const ConnectionStore& connections, SentFinding& sent, bool final);
    void sendFlows(const LiveResults& results, bool atEnd);
    void countNewConnections(const ConnectionStore& connections);
    void sendRates(int64_t completeUntilNs);
    void sendPopulation(const HostPopulation& about, const PopulationSeries& series, int64_t endTsNs,
                        int64_t completeUntilNs);
    // Adds a record, to be made by `makeLine` on the sink's thread, to those handOver() gives the sink.
    void write(RecordType type, int64_t tsNs, std::function<std::string()> makeLine);
    // Gives the sink the records of this pass at once (RecordSink::writeLater).
    void handOver();

    std::shared_ptr<const RecordSource> source_;  // shared with the records still to be made
    RecordSink& sink_;
    RecordCounts counts_;
    std::vector<LaterRecord> pending_;  // made in this pass, not handed over yet
    std::chrono::steady_clock::time_point lastPass_{};
    std::vector<SentFinding> findings_;  // [live finding id]
    std::vector<FlowState> flows_;       // [connection id]
    std::vector<uint32_t> endingFlows_;  // ids that saw a FIN or RST, or were retired, not yet sent
    size_t countedConnections_ = 0;      // connections whose first SYN was counted in rates_
    std::map<std::pair<Endpoint, int64_t>, int64_t> rates_;  // (listener, UTC second) -> new connections
    // Per population series (kind, host, role, server): the end of the last row sent. Looked up for
    // every series at every pass (W1: 1,900 series): hashed, not ordered.
    absl::flat_hash_map<std::tuple<HostPopulation::Kind, IpAddress, Side, Endpoint>, int64_t> seriesSentUntilNs_;
};

}  // namespace tcpscope
