#include "live/live_analysis.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <ctime>
#include <deque>
#include <span>
#include <string>

#include "capture/ptcpdump_comment.hpp"
#include "detect/detector_set.hpp"
#include "engine/frame_driver.hpp"

namespace tcpscope {

// The processes that packets' ptcpdump-style comments name (a recorded capture's), each read once
// and kept while the analysis lives, as a file's reader keeps them: the engine holds their addresses.
class LiveAnalysis::CommentProcesses {
public:
    const PacketProcess* of(std::string_view comment) {
        if (comment.empty() || !looksLikePtcpdumpComment(comment)) {
            return nullptr;
        }
        const auto found = byComment_.find(absl::string_view(comment.data(), comment.size()));
        if (found != byComment_.end()) {
            return found->second;
        }
        PacketProcess process;
        const PacketProcess* kept = nullptr;
        if (readPtcpdumpComment(comment, process)) {
            kept = &processes_.emplace_back(std::move(process));
        }
        byComment_.emplace(std::string(comment), kept);
        return kept;
    }

private:
    std::deque<PacketProcess> processes_;
    absl::flat_hash_map<std::string, const PacketProcess*> byComment_;
};

namespace {

// The packets of one batch taken from the queue, as the frame driver takes them (all of input 0).
class QueuedPackets final : public FrameSource {
public:
    QueuedPackets(const PacketBatch& batch, LiveAnalysis::CommentProcesses& processes)
        : batch_(batch), processes_(processes) {}

    size_t decodeNext(const AnalysisEngine& engine, std::span<PreparedFrame> frames) override {
        size_t count = 0;
        for (; count < frames.size() && next_ < batch_.size(); ++count) {
            const RawPacket packet = take();
            engine.decode(packet, 0, frames[count]);
        }
        return count;
    }

    size_t pushNext(AnalysisEngine& engine, size_t count) override {
        size_t pushed = 0;
        for (; pushed < count && next_ < batch_.size(); ++pushed) {
            engine.push(take(), 0);
        }
        return pushed;
    }

    [[nodiscard]] uint64_t bytesConsumed() const override { return bytesTaken_; }

private:
    RawPacket take() {
        RawPacket packet = batch_.at(next_++);
        bytesTaken_ += packet.capturedLength;
        packet.process = processes_.of(packet.comment);
        return packet;
    }

    const PacketBatch& batch_;
    LiveAnalysis::CommentProcesses& processes_;
    size_t next_ = 0;
    uint64_t bytesTaken_ = 0;
};

}  // namespace

LiveAnalysis::LiveAnalysis(const AnalysisOptions& options, PacketQueue& queue, FindingListener onFinding,
                           UpdateListener onUpdate, std::chrono::milliseconds updateInterval)
    : queue_(queue),
      engine_(std::make_unique<AnalysisEngine>(options.engine)),
      processes_(std::make_unique<CommentProcesses>()),
      onUpdate_(std::move(onUpdate)),
      updateInterval_(updateInterval) {
    authors_ = std::make_unique<FindingAuthors>(*engine_, options.detectors);
    if (onFinding) {
        authors_->log().setListener(std::move(onFinding));
    }
}

LiveAnalysis::~LiveAnalysis() {
    if (thread_.joinable()) {
        queue_.close();
        thread_.join();
    }
    if (engine_) {
        engine_->clearObservers();
    }
}

void LiveAnalysis::addObserver(LiveObserver* observer) {
    observers_.push_back(observer);
    engine_->addObserver(observer);
}

void LiveAnalysis::start() {
    thread_ = std::thread([this] { loop(); });
}

void LiveAnalysis::loop() {
    using Clock = std::chrono::steady_clock;
    PacketBatch batch;
    DriveControls onThisThread;
    onThisThread.readingThreadAllowed = false;
    auto lastUpdate = Clock::now();
    auto nextClock = lastUpdate + updateInterval_;
    auto lastPacketTaken = lastUpdate;  // when the analysis took the batch with the last packet
    // Wake at least a few times a second so the views update even when a batch is all there is,
    // and the detectors learn that time passed while no packet came: the wait ends at the next
    // tick of the clock, whatever packets came meanwhile.
    const auto untilNextClock = [&nextClock] {
        return std::max(std::chrono::duration_cast<std::chrono::milliseconds>(nextClock - Clock::now()),
                        std::chrono::milliseconds(0));
    };
    while (queue_.take(batch, untilNextClock())) {
        const auto now = Clock::now();
        {
            const std::lock_guard lock(resultsMutex_);
            if (!batch.empty()) {
                QueuedPackets packets(batch, *processes_);
                driveFrames(packets, *engine_, onThisThread);
                analysed_ += batch.size();
                lastPacketTaken = now;
            }
            if (now >= nextClock) {
                nextClock = now + updateInterval_;
                // Capture time now: the last packet's time plus what passed since the analysis took
                // it (not since its capture timestamp: a helper or a pipe may stamp with another
                // host's clock).
                if (analysed_ > 0) {
                    engine_->advanceClock(
                        engine_->lastTsNs() +
                        std::chrono::duration_cast<std::chrono::nanoseconds>(now - lastPacketTaken).count());
                }
                for (LiveObserver* observer : observers_) {
                    observer->onTick(results());
                }
            }
        }
        if (onUpdate_ && !batch.empty() && now - lastUpdate >= updateInterval_) {
            lastUpdate = now;
            read(onUpdate_);
        }
    }
    timespec cpu{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0) {
        threadCpuNs_ = int64_t{cpu.tv_sec} * 1'000'000'000 + cpu.tv_nsec;
    }
}

LiveResults LiveAnalysis::results() const {
    return LiveResults{{*engine_, authors_->log()}, authors_->detectors()};
}

CaptureAnalysis LiveAnalysis::finish(std::vector<InputSummary> inputs) {
    if (thread_.joinable()) {
        thread_.join();
    }
    const std::lock_guard lock(resultsMutex_);
    engine_->finish();
    for (LiveObserver* observer : observers_) {
        observer->onFinished(results());
    }
    engine_->clearObservers();
    CaptureAnalysis analysis;
    analysis.inputs = std::move(inputs);
    analysis.findings = authors_->log().release();
    analysis.populations = authors_->log().releasePopulations();
    analysis.engine = std::move(engine_);
    return analysis;
}

void LiveAnalysis::read(const std::function<void(const LiveResults& results)>& reader) const {
    const std::lock_guard lock(resultsMutex_);
    if (engine_) {
        reader(results());
    }
}

uint64_t LiveAnalysis::packetsAnalysed() const {
    const std::lock_guard lock(resultsMutex_);
    return analysed_;
}

}  // namespace tcpscope
