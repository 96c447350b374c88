#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "live/pcap_capture.hpp"
#include "recorder/syscall_recorder.hpp"

namespace tcpscope {

/// What `tcpscope-cli record` records and where.
struct RecordingOptions {
    static LiveCaptureOptions batchedCapture() {
        LiveCaptureOptions options;
        options.batchTimeoutMs = 100;
        return options;
    }

    /// Device, capture filter, snap length, buffer; packets come in batches (batchTimeoutMs, 100 by
    /// default): a recording needs them in the file, not at once, and the calls of a batch's
    /// connections are known by then, so more packets get their process.
    LiveCaptureOptions capture = batchedCapture();
    std::string path;                   ///< the pcapng file (with `fd`: its name in messages)
    int fd = -1;                        ///< if not -1, write to this open descriptor (a pipe) instead
    SyscallRecorderFilter processes;    ///< whose system calls
    /// The calls recorded are written (and the file flushed) at least this often, or every 1024 calls.
    std::chrono::milliseconds callBlockInterval{250};
    /// If set, called on the capture thread after each batch of packets, and once at the end
    /// (`atEnd`), with the capture's counters so far.
    std::function<void(const CaptureStats& stats, bool atEnd)> onBatchStats;
};

/// What a recording wrote.
struct RecordingSummary {
    uint64_t packets = 0;
    uint64_t packetsWithProcess = 0;  ///< packets given a process comment
    uint64_t droppedByKernel = 0;     ///< packets the capture buffer had no room for
    uint64_t calls = 0;               ///< system calls written
    uint64_t lostCalls = 0;           ///< calls the ring buffer had no room for
    uint64_t callBlocks = 0;
    std::vector<std::string> unattached;  ///< tracepoints that could not be attached
};

/// Packets (libpcap, as live capture takes them) and the system calls of chosen processes (the BPF
/// recorder) written into one pcapng file: packets as Enhanced Packet Blocks with the process that
/// sent or received them as a ptcpdump-style comment where a recorded call showed it, the calls in
/// Custom Blocks (call_block.hpp), and the relation of the calls' clock to the packets' at the
/// start and the end. Packets are written on a capture thread, calls on the thread calling run().
class CaptureRecording {
public:
    /// Opens the device, loads the recorder and creates the file. Throws LiveCaptureError,
    /// SyscallRecorderError or PcapngWriteError.
    explicit CaptureRecording(const RecordingOptions& options);
    ~CaptureRecording();
    CaptureRecording(const CaptureRecording&) = delete;
    CaptureRecording& operator=(const CaptureRecording&) = delete;

    /// Records until stop() (any thread) or until `durationSeconds` passed; then closes the file.
    RecordingSummary run(std::optional<double> durationSeconds);
    void stop();
    [[nodiscard]] const CaptureDescription& description() const;

    struct State;

private:
    std::unique_ptr<State> state_;
};

/// The current CLOCK_MONOTONIC and CLOCK_REALTIME, read as close together as the system allows.
struct ClockSample sampleClocks();

}  // namespace tcpscope
