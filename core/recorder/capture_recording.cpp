#include "recorder/capture_recording.hpp"

#include <fmt/format.h>
#include <time.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "capture/pcapng_writer.hpp"
#include "decode/packet_decoder.hpp"
#include "recorded/call_block.hpp"
#include "recorded/recorded_call.hpp"
#include "recorder/call_processes.hpp"

namespace tcpscope {
namespace {

int64_t nsOf(clockid_t clock) {
    timespec time{};
    clock_gettime(clock, &time);
    return static_cast<int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

std::unique_ptr<PcapngWriter> openWriter(const RecordingOptions& options) {
    const PcapngSectionInfo section{{}, {}, std::string(kRecordApplication), {}};
    if (options.fd >= 0) {
        return std::make_unique<PcapngWriter>(options.fd, options.path, section, PcapngFlush::Manual);
    }
    return std::make_unique<PcapngWriter>(options.path, section, PcapngFlush::Manual);
}

}  // namespace

ClockSample sampleClocks() {
    // The realtime read between two monotonic reads: the monotonic time it stands for is their middle.
    const int64_t before = nsOf(CLOCK_MONOTONIC);
    const int64_t realtime = nsOf(CLOCK_REALTIME);
    const int64_t after = nsOf(CLOCK_MONOTONIC);
    return {static_cast<uint64_t>(before + (after - before) / 2), realtime};
}

struct CaptureRecording::State final : PacketSink {
    explicit State(const RecordingOptions& options)
        : capture(options.capture),
          blockInterval(options.callBlockInterval),
          onBatchStats(options.onBatchStats),
          recorder(options.processes),
          ownedWriter(openWriter(options)),
          writer(*ownedWriter) {
        const CaptureDescription& source = capture.description();
        PcapngInterfaceInfo interface;
        interface.linkType = source.linkType;
        interface.snapLength = source.snapLength;
        interface.name = source.device;
        interface.filter = source.filter;
        interface.tsResolutionDigits = source.nanosecond ? 9 : 6;
        interfaceId = writer.addInterface(interface);
    }

    void onPacket(const RawPacket& packet) override {
        TcpSegment segment;
        CallProcesses::PacketEnd end;
        if (decodePacket(packet, segment) == DecodeStatus::Tcp) {
            end = processOf(segment);
            if (end.comment.empty() && takeCallsIfDue()) {
                end = processOf(segment);
            }
        }
        std::lock_guard lock(mutex);
        writer.writePacket({interfaceId, packet.tsNs, packet.originalLength,
                            std::span<const uint8_t>(packet.data, packet.capturedLength), end.comment, {},
                            end.direction});
        ++summary.packets;
        summary.packetsWithProcess += end.comment.empty() ? 0 : 1;
    }

    CallProcesses::PacketEnd processOf(const TcpSegment& segment) {
        std::lock_guard lock(mutex);
        return processes.of(segment);
    }

    // Takes the calls waiting in the ring buffer. True if there were any.
    bool takeCalls() {
        std::lock_guard lock(recorderMutex);
        return recorder.poll(0, onCalls) > 0;
    }
    // A packet of a connection no call has shown yet: its calls may be waiting in the ring buffer
    // (read every kCallsInterval); take them now, at most once in kEarlyCallsInterval.
    bool takeCallsIfDue() {
        const auto now = std::chrono::steady_clock::now();
        if (now - lastEarlyTake < kEarlyCallsInterval) {
            return false;
        }
        lastEarlyTake = now;
        return takeCalls();
    }

    void onBatchEnd() override {
        {
            std::lock_guard lock(mutex);
            writer.flush();
        }
        if (onBatchStats) {
            onBatchStats(capture.stats(), false);
        }
    }

    // The process table learns each call at once (for the next packets' comments); the calls
    // reach the file in blocks of up to kBlockEvents, or after blockInterval.
    void addCalls(std::span<const uint8_t> events, uint32_t count) {
        std::lock_guard lock(mutex);
        for (uint32_t i = 0; i < count; ++i) {
            processes.learn(decodeCall(events.subspan(i * kCallRecordBytes, kCallRecordBytes)));
        }
        pendingCalls.insert(pendingCalls.end(), events.begin(), events.begin() + static_cast<ptrdiff_t>(count * kCallRecordBytes));
        pendingCount += count;
        if (pendingCount >= kBlockEvents) {
            writePendingCalls();
        }
    }
    void writePendingCallsIfDue() {
        if (std::chrono::steady_clock::now() - lastBlock >= blockInterval) {
            std::lock_guard lock(mutex);
            writePendingCalls();
        }
    }
    void writePendingCalls() {  // mutex held
        lastBlock = std::chrono::steady_clock::now();
        if (pendingCount == 0) {
            return;
        }
        writer.writeCustomBlock(kCustomBlockType, kTcpscopePen, encodeCallsBlock(pendingCalls, pendingCount));
        writer.flush();  // a reader over a pipe takes the calls as they come
        summary.calls += pendingCount;
        ++summary.callBlocks;
        pendingCalls.clear();
        pendingCount = 0;
    }

    void writeClock() {
        std::lock_guard lock(mutex);
        writer.writeCustomBlock(kCustomBlockType, kTcpscopePen, encodeClockBlock(sampleClocks()));
        writer.flush();  // with the section header: a reader over a pipe starts before any packet
    }

    PcapCapture capture;
    std::chrono::milliseconds blockInterval;
    std::function<void(const CaptureStats& stats, bool atEnd)> onBatchStats;
    SyscallRecorder recorder;
    std::mutex mutex;  // the writer and the table of ends, shared by the capture thread and run()
    std::unique_ptr<PcapngWriter> ownedWriter;
    PcapngWriter& writer;
    uint32_t interfaceId = 0;
    CallProcesses processes;
    RecordingSummary summary;
    std::atomic<bool> stopRequested{false};
    static constexpr uint32_t kBlockEvents = 1024;
    static constexpr std::chrono::milliseconds kCallsInterval{50};
    static constexpr std::chrono::milliseconds kEarlyCallsInterval{5};
    std::mutex recorderMutex;  // the ring buffer, read by run() and, early, by the capture thread
    std::chrono::steady_clock::time_point lastEarlyTake;  // capture thread only
    const SyscallRecorder::BatchFn onCalls = [this](std::span<const uint8_t> events, uint32_t count) {
        addCalls(events, count);
    };
    std::vector<uint8_t> pendingCalls;  // calls not in the file yet
    uint32_t pendingCount = 0;
    std::chrono::steady_clock::time_point lastBlock = std::chrono::steady_clock::now();
};

CaptureRecording::CaptureRecording(const RecordingOptions& options) : state_(std::make_unique<State>(options)) {}

CaptureRecording::~CaptureRecording() = default;

const CaptureDescription& CaptureRecording::description() const { return state_->capture.description(); }

void CaptureRecording::stop() { state_->stopRequested = true; }

RecordingSummary CaptureRecording::run(std::optional<double> durationSeconds) {
    State& state = *state_;
    const int64_t startNs = nsOf(CLOCK_REALTIME);
    state.writeClock();
    std::exception_ptr captureFailure;
    std::thread packets([&state, &captureFailure] {
        try {
            state.capture.run(state);
        } catch (...) {
            captureFailure = std::current_exception();
        }
    });
    const auto deadline = durationSeconds ? std::chrono::steady_clock::now() +
                                                std::chrono::milliseconds(static_cast<int64_t>(*durationSeconds * 1000))
                                          : std::chrono::steady_clock::time_point::max();
    while (!state.stopRequested && std::chrono::steady_clock::now() < deadline && !captureFailure) {
        std::this_thread::sleep_for(State::kCallsInterval);
        state.takeCalls();
        state.writePendingCallsIfDue();
    }
    state.capture.stop();
    packets.join();
    while (state.takeCalls()) {
    }
    {
        std::lock_guard lock(state.mutex);
        state.writePendingCalls();
    }
    state.writeClock();
    state.summary.lostCalls = state.recorder.lostEvents();
    state.summary.unattached = state.recorder.unattached();
    const CaptureStats stats = state.capture.stats();
    state.summary.droppedByKernel = stats.droppedByKernel;
    if (state.onBatchStats) {
        state.onBatchStats(stats, true);
    }
    {
        std::lock_guard lock(state.mutex);
        state.writer.writeCustomBlock(kCustomBlockType, kTcpscopePen,
                                      encodeSummaryBlock(state.summary.calls, state.summary.lostCalls));
        PcapngInterfaceStats interfaceStats;
        interfaceStats.interfaceId = state.interfaceId;
        interfaceStats.tsNs = nsOf(CLOCK_REALTIME);
        interfaceStats.startNs = startNs;
        interfaceStats.received = stats.captured;
        interfaceStats.droppedByKernel = stats.droppedByKernel;
        interfaceStats.droppedByInterface = stats.droppedByInterface;
        interfaceStats.delivered = state.summary.packets;
        state.writer.writeInterfaceStats(interfaceStats);
        state.writer.close();
    }
    if (captureFailure) {
        std::rethrow_exception(captureFailure);
    }
    return state.summary;
}

}  // namespace tcpscope
