#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "detect/finding_log.hpp"
#include "engine/segment_observer.hpp"
#include "live/packet_queue.hpp"

namespace tcpscope {

class DetectorSet;

/// Results readable during a live analysis, on the analysis thread, between two packets: the
/// same view of an engine and its findings as a file load's checkpoints, and the detectors, whose
/// population series (DetectorSet::populationsOf) a host chart copies while the capture runs.
struct LiveResults : AnalysisCheckpoint {
    const DetectorSet& detectors;
};

/// Follows a live analysis on its thread, with the engine at rest between two batches of packets
/// (as well as every segment, as any SegmentObserver): what a live capture's records are made from.
class LiveObserver : public SegmentObserver {
public:
    /// After each tick of the capture clock (a few times a second), whether packets came or not.
    virtual void onTick(const LiveResults& results) = 0;
    /// Once, when the input has ended and the detectors made their last findings, before the
    /// findings are released (their ids are still those the finding listener heard).
    virtual void onFinished(const LiveResults& results) = 0;
};

/// The analysis side of a live capture: its own thread takes packets from the queue and drives
/// them through the same engine, frame driver (driveFrames) and detectors (FindingAuthors) as a
/// file. Findings reach the listener as soon as a detector makes them (on the packet that
/// completes them); views get a throttled update.
/// Every `updateInterval` the engine's clock advances (AnalysisEngine::advanceClock), so that a
/// stall still going on shows as an ongoing finding while no packet comes. finish() ends the
/// analysis at the last packet's time, as the analysis of the written file does.
class LiveAnalysis {
public:
    /// Called on the analysis thread when a finding is made (isNew) or grows.
    using FindingListener = std::function<void(const Finding& finding, bool isNew)>;
    /// Called on the analysis thread at most every `updateInterval`, after a batch, while packets come.
    using UpdateListener = std::function<void(const LiveResults& results)>;

    /// Throws BpfFilterError if the analysis filter is invalid.
    LiveAnalysis(const AnalysisOptions& options, PacketQueue& queue, FindingListener onFinding = {},
                 UpdateListener onUpdate = {},
                 std::chrono::milliseconds updateInterval = std::chrono::milliseconds(250));
    ~LiveAnalysis();
    LiveAnalysis(const LiveAnalysis&) = delete;
    LiveAnalysis& operator=(const LiveAnalysis&) = delete;

    /// Lets `observer` follow the analysis, after those added before (before start(); it must
    /// outlive finish()).
    void addObserver(LiveObserver* observer);
    /// Starts the analysis thread.
    void start();
    /// Waits until the queue is closed and drained, ends the analysis (detectors' end-of-input
    /// pass) and hands over the results; `inputs` describes what was captured.
    CaptureAnalysis finish(std::vector<InputSummary> inputs);

    /// Calls `reader` with the current results, from any thread (blocks the analysis meanwhile).
    void read(const std::function<void(const LiveResults& results)>& reader) const;
    /// Packets analysed so far.
    [[nodiscard]] uint64_t packetsAnalysed() const;
    /// CPU time (user + system) the analysis thread used until the input ended: what keeping up
    /// with the packets cost, observers included (valid after finish()).
    [[nodiscard]] int64_t threadCpuNs() const { return threadCpuNs_; }

    class CommentProcesses;

private:
    void loop();
    // The results as the observers and readers see them (engine_ set).
    [[nodiscard]] LiveResults results() const;

    PacketQueue& queue_;
    std::unique_ptr<AnalysisEngine> engine_;
    std::unique_ptr<CommentProcesses> processes_;  // the packets' processes while they are analysed
    std::unique_ptr<FindingAuthors> authors_;  // after engine_, which its detectors read
    UpdateListener onUpdate_;
    std::vector<LiveObserver*> observers_;
    std::chrono::milliseconds updateInterval_;
    mutable std::mutex resultsMutex_;
    std::thread thread_;
    uint64_t analysed_ = 0;
    int64_t threadCpuNs_ = 0;  // written by the thread as it ends, read after join
};

}  // namespace tcpscope
