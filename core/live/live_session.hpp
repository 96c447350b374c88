#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "live/capture_companion.hpp"
#include "live/capture_file_writer.hpp"
#include "live/live_analysis.hpp"
#include "live/packet_queue.hpp"
#include "live/packet_source.hpp"

namespace tcpscope {

/// Settings of one live capture session.
struct LiveSessionOptions {
    AnalysisOptions analysis;                 ///< detector thresholds (and an analysis filter, usually empty)
    std::optional<CaptureFileOptions> file;   ///< where to keep the packets, if anywhere
    uint64_t maxPackets = 0;                  ///< stop after this many packets (0: until stopped)
    size_t queuePackets = 200'000;            ///< how far the analysis may fall behind before packets
    size_t queueBytes = size_t{128} << 20;    ///< are left out of it (they are still written)
    /// Move the packet index's older chunks to an unlinked file, so that memory stays bounded on a
    /// long capture: in analysis.engine.indexSpill.directory if set, else beside the capture file,
    /// else in $TMPDIR or /tmp. If the file cannot be made the index stays in memory (see
    /// LiveCaptureSummary::indexProblem).
    bool spillPacketIndex = true;
    /// Retire connections closed or idle for long (ConnectionRetirement), so that a capture of
    /// hours keeps only a compact record of each; the closed age is kept past the detectors' TIME_WAIT.
    bool retireConnections = true;
    LiveAnalysis::FindingListener onFinding;  ///< on the analysis thread; must not call read()
    LiveAnalysis::UpdateListener onUpdate;    ///< on the analysis thread, a few times a second
    std::vector<LiveObserver*> observers;     ///< follow the analysis (LiveAnalysis::addObserver), in order
    /// Recorded beside the packets (the system calls of chosen processes), or null; must outlive finish().
    CaptureCompanion* companion = nullptr;
};

/// What a finished session captured, for the report.
struct LiveCaptureSummary {
    CaptureDescription source;
    CaptureStats kernel;                ///< captured and dropped by the kernel / the interface
    uint64_t analysisDropped = 0;       ///< captured (and written) but not analysed: the analysis fell behind
    size_t queueHighWater = 0;          ///< the most packets that waited for the analysis at once
    int64_t analysisCpuNs = 0;          ///< CPU time of the analysis thread until the input ended
    uint64_t written = 0;               ///< packets written to files
    std::vector<std::string> files;     ///< files written and kept, oldest first
    uint64_t filesDeleted = 0;          ///< ring files deleted
    int64_t startNs = 0;                ///< wall-clock start and end of the capture
    int64_t endNs = 0;
    std::string error;                  ///< what ended the capture early, empty if it was stopped or completed
    size_t indexBytesInMemory = 0;      ///< the packet index: held in memory
    size_t indexBytesOnDisk = 0;        ///< and moved to its unlinked file
    std::string indexProblem;           ///< why the packet index could not move to disk, empty if it could or was not asked to
    size_t connectionsRetired = 0;      ///< connections summarised (LiveSessionOptions::retireConnections)
    size_t connectionBytes = 0;         ///< memory of the connection records and the live connections' sequence states
};

/// A live capture from start to stop: the capture thread writes every packet to the file and
/// hands a copy to the analysis thread through a bounded queue, so a slow analysis never holds up
/// capture or the file. Stops on stop(), after maxPackets, at the end of the source, or on an error.
class LiveSession {
public:
    /// Creates the output file and the analysis. Throws PcapngWriteError, BpfFilterError.
    LiveSession(std::unique_ptr<PacketSource> source, LiveSessionOptions options);
    ~LiveSession();
    LiveSession(const LiveSession&) = delete;
    LiveSession& operator=(const LiveSession&) = delete;

    /// Starts the capture and analysis threads.
    void start();
    /// Asks the capture to stop; callable from any thread (not from a signal handler).
    void stop();
    /// Waits up to `timeout` for the capture to end; true if it has ended.
    bool waitUntilEnded(std::chrono::milliseconds timeout);

    /// Counters so far, from any thread.
    [[nodiscard]] CaptureStats stats() const { return source_->stats(); }
    [[nodiscard]] uint64_t analysisDropped() const { return queue_.dropped(); }
    [[nodiscard]] const CaptureDescription& description() const { return source_->description(); }
    /// The current results, from any thread (see LiveAnalysis::read).
    void read(const std::function<void(const LiveResults& results)>& reader) const { analysis_.read(reader); }

    /// The results of a finished session.
    struct Result {
        CaptureAnalysis analysis;
        LiveCaptureSummary summary;
    };
    /// Stops the capture if it still runs, waits for the analysis of every queued packet, closes
    /// the file with the kernel's counters, and returns everything. Call once.
    Result finish();

private:
    class Sink;
    void captureLoop();
    void endWith(std::string error);

    std::unique_ptr<PacketSource> source_;
    LiveSessionOptions options_;
    PacketQueue queue_;
    LiveAnalysis analysis_;
    std::unique_ptr<CaptureFileWriter> file_;
    std::unique_ptr<Sink> sink_;
    std::thread captureThread_;
    mutable std::mutex endMutex_;
    std::condition_variable ended_;
    bool hasEnded_ = false;
    std::string error_;
    int64_t startNs_ = 0;
    int64_t endNs_ = 0;
};

}  // namespace tcpscope
