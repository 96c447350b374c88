#include "live/live_analysis.hpp"

#include <algorithm>
#include <ctime>

#include "detect/detector_set.hpp"

namespace tcpscope {

LiveAnalysis::LiveAnalysis(const AnalysisOptions& options, PacketQueue& queue, FindingListener onFinding,
                           UpdateListener onUpdate, std::chrono::milliseconds updateInterval)
    : queue_(queue),
      engine_(std::make_unique<AnalysisEngine>(options.engine)),
      onUpdate_(std::move(onUpdate)),
      updateInterval_(updateInterval) {
    detectors_ = std::make_unique<DetectorSet>(*engine_, options.detectors, log_);
    if (onFinding) {
        log_.setListener(std::move(onFinding));
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

void LiveAnalysis::start() { thread_ = std::thread([this] { loop(); }); }

void LiveAnalysis::loop() {
    using Clock = std::chrono::steady_clock;
    PacketBatch batch;
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
            for (size_t index = 0; index < batch.size(); ++index) {
                engine_->push(batch.at(index), 0);
            }
            analysed_ += batch.size();
            if (!batch.empty()) {
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
                    observer->onTick(LiveResults{{*engine_, log_}, *detectors_});
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

CaptureAnalysis LiveAnalysis::finish(std::vector<InputSummary> inputs) {
    if (thread_.joinable()) {
        thread_.join();
    }
    const std::lock_guard lock(resultsMutex_);
    engine_->finish();
    for (LiveObserver* observer : observers_) {
        observer->onFinished(LiveResults{{*engine_, log_}, *detectors_});
    }
    engine_->clearObservers();
    CaptureAnalysis analysis;
    analysis.inputs = std::move(inputs);
    analysis.findings = log_.release();
    analysis.populations = log_.releasePopulations();
    analysis.engine = std::move(engine_);
    return analysis;
}

void LiveAnalysis::read(const std::function<void(const LiveResults& results)>& reader) const {
    const std::lock_guard lock(resultsMutex_);
    if (engine_) {
        reader(LiveResults{{*engine_, log_}, *detectors_});
    }
}

uint64_t LiveAnalysis::packetsAnalysed() const {
    const std::lock_guard lock(resultsMutex_);
    return analysed_;
}

}  // namespace tcpscope
