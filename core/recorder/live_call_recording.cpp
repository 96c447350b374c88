#include "recorder/live_call_recording.hpp"

#include "decode/decoded_packet.hpp"
#include "decode/packet_decoder.hpp"
#include "live/capture_file_writer.hpp"
#include "recorded/call_block.hpp"
#include "recorded/connection_calls.hpp"
#include "recorder/capture_recording.hpp"

namespace tcpscope {
namespace {

// As `record`: the ring buffer read every kCallsInterval, early at most every kEarlyCallsInterval,
// calls written in blocks of up to kBlockEvents or after kBlockInterval.
constexpr std::chrono::milliseconds kCallsInterval{50};
constexpr std::chrono::milliseconds kEarlyCallsInterval{5};
constexpr std::chrono::milliseconds kBlockInterval{250};
constexpr uint32_t kBlockEvents = 1024;

}  // namespace

LiveCallRecording::LiveCallRecording(const SyscallRecorderFilter& filter) : recorder_(filter) {
    calls_.clock.push_back(sampleClocks());
    reader_ = std::thread([this] {
        while (!stopReading_) {
            std::this_thread::sleep_for(kCallsInterval);
            takeCalls();
        }
    });
}

LiveCallRecording::~LiveCallRecording() {
    stopReading_ = true;
    if (reader_.joinable()) {
        reader_.join();
    }
}

void LiveCallRecording::takeCalls() {
    const std::lock_guard lock(recorderMutex_);
    recorder_.poll(0, [this](std::span<const uint8_t> events, uint32_t count) { addCalls(events, count); });
}

void LiveCallRecording::addCalls(std::span<const uint8_t> events, uint32_t count) {
    const std::lock_guard lock(mutex_);
    for (uint32_t i = 0; i < count; ++i) {
        RecordedCall call = decodeCall(events.subspan(i * kCallRecordBytes, kCallRecordBytes));
        processes_.learn(call);
        calls_.calls.push_back(std::move(call));
    }
    pendingEvents_.insert(pendingEvents_.end(), events.begin(),
                          events.begin() + static_cast<ptrdiff_t>(count * kCallRecordBytes));
    pendingCount_ += count;
}

void LiveCallRecording::annotate(RawPacket& packet) {
    TcpSegment segment;
    if (decodePacket(packet, segment) != DecodeStatus::Tcp) {
        return;
    }
    CallProcesses::PacketEnd end;
    {
        const std::lock_guard lock(mutex_);
        end = processes_.of(segment);
    }
    // A packet of a connection no call has shown yet: its calls may be waiting in the ring buffer.
    const auto now = std::chrono::steady_clock::now();
    if (end.comment.empty() && now - lastEarlyTake_ >= kEarlyCallsInterval) {
        lastEarlyTake_ = now;
        takeCalls();
        const std::lock_guard lock(mutex_);
        end = processes_.of(segment);
    }
    if (!end.comment.empty()) {
        comment_ = std::move(end.comment);
        packet.comment = comment_;
        packet.direction = end.direction;
        ++packetsWithProcess_;
    }
}

void LiveCallRecording::writePending(CaptureFileWriter& file) {
    if (!startWritten_) {
        file.writeCustomBlock(kCustomBlockType, kTcpscopePen, encodeClockBlock(calls_.clock.front()));
        startWritten_ = true;
    }
    lastBlock_ = std::chrono::steady_clock::now();
    if (pendingCount_ > 0) {
        file.writeCustomBlock(kCustomBlockType, kTcpscopePen, encodeCallsBlock(pendingEvents_, pendingCount_));
    }
    pendingEvents_.clear();
    pendingCount_ = 0;
}

void LiveCallRecording::writeInto(CaptureFileWriter* file) {
    const std::lock_guard lock(mutex_);
    if (file == nullptr) {
        pendingEvents_.clear();  // the calls are kept in calls_ for the analysis
        pendingCount_ = 0;
        return;
    }
    if (!startWritten_ || pendingCount_ >= kBlockEvents ||
        std::chrono::steady_clock::now() - lastBlock_ >= kBlockInterval) {
        writePending(*file);
    }
}

void LiveCallRecording::finishInto(CaptureFileWriter* file) {
    stopReading_ = true;
    if (reader_.joinable()) {
        reader_.join();
    }
    // Calls made until now, in as many takes as it needs.
    uint64_t taken = 0;
    do {
        const std::lock_guard lock(recorderMutex_);
        taken = recorder_.poll(0, [this](std::span<const uint8_t> events, uint32_t count) { addCalls(events, count); });
    } while (taken > 0);
    const std::lock_guard lock(mutex_);
    if (finished_) {
        return;
    }
    finished_ = true;
    calls_.clock.push_back(sampleClocks());
    calls_.lostEvents = recorder_.lostEvents();
    calls_.hasSummary = true;
    if (file != nullptr) {
        writePending(*file);
        file->writeCustomBlock(kCustomBlockType, kTcpscopePen, encodeClockBlock(calls_.clock.back()));
        file->writeCustomBlock(kCustomBlockType, kTcpscopePen,
                               encodeSummaryBlock(calls_.calls.size(), calls_.lostEvents));
    }
}

RecordedCalls LiveCallRecording::calls() const {
    const std::lock_guard lock(mutex_);
    return calls_;
}

RecordedCalls LiveCallRecording::callsOf(std::span<const ConnectionEnds> connections) const {
    const std::lock_guard lock(mutex_);
    return callsOfConnections(calls_, connections);
}

uint64_t LiveCallRecording::callCount() const {
    const std::lock_guard lock(mutex_);
    return calls_.calls.size();
}

}  // namespace tcpscope
