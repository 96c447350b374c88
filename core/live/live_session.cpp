#include "live/live_session.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "capture/pcapng_writer.hpp"
#include "live/live_error.hpp"

namespace tcpscope {

namespace {

int64_t wallClockNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Where the packet index moves its older chunks: as given, else beside the capture file, else $TMPDIR or /tmp.
LiveSessionOptions withIndexSpill(LiveSessionOptions options) {
    std::string& directory = options.analysis.engine.indexSpill.directory;
    if (!options.spillPacketIndex) {
        directory.clear();
    } else if (directory.empty()) {
        if (options.file) {
            const std::filesystem::path parent = std::filesystem::path(options.file->path).parent_path();
            directory = parent.empty() ? "." : parent.string();
        } else {
            const char* temporary = std::getenv("TMPDIR");  // NOLINT(concurrency-mt-unsafe): read before the session's threads start
            directory = temporary != nullptr && *temporary != '\0' ? temporary : "/tmp";
        }
    }
    return options;
}

// Retirement of old connections as asked, never before the detectors' TIME_WAIT (and its expiry) is over.
LiveSessionOptions withRetirement(LiveSessionOptions options) {
    ConnectionRetirement& retirement = options.analysis.engine.retirement;
    retirement.enabled = options.retireConnections;
    constexpr int64_t kMarginNs = 1'000'000'000;  // expiries run at exactly TIME_WAIT's end
    const auto timeWaitNs = static_cast<int64_t>(options.analysis.detectors.timeWaitSeconds * 1e9);
    retirement.closedAgeNs = std::max(retirement.closedAgeNs, timeWaitNs + kMarginNs);
    retirement.idleAgeNs = std::max(retirement.idleAgeNs, retirement.closedAgeNs);
    return options;
}

}  // namespace

// On the capture thread: every packet to the file, a copy to the analysis queue.
class LiveSession::Sink final : public PacketSink {
public:
    explicit Sink(LiveSession& session) : session_(session) {}

    void onPacket(const RawPacket& captured) override {
        if (limitReached_ || failed_) {
            return;  // the rest of the batch that reached the count
        }
        RawPacket packet = captured;
        if (session_.options_.companion != nullptr) {
            session_.options_.companion->annotate(packet);
        }
        if (session_.file_) {
            try {
                session_.file_->write(packet);
            } catch (const PcapngWriteError& error) {
                fail(error.what());
                return;
            }
        }
        session_.queue_.push(packet);
        if (++packets_ == session_.options_.maxPackets) {
            limitReached_ = true;
            session_.source_->stop();
        }
    }

    void onBatchEnd() override {
        if (failed_) {
            return;
        }
        try {
            if (session_.options_.companion != nullptr) {
                session_.options_.companion->writeInto(session_.file_.get());
            }
        } catch (const PcapngWriteError& error) {
            fail(error.what());
            return;
        }
        if (session_.file_) {
            try {
                session_.file_->flush();
            } catch (const PcapngWriteError& error) {
                fail(error.what());
            }
        }
    }

    [[nodiscard]] const std::string& error() const { return error_; }

private:
    void fail(std::string error) {
        failed_ = true;
        error_ = std::move(error);
        session_.source_->stop();
    }

    LiveSession& session_;
    uint64_t packets_ = 0;
    bool limitReached_ = false;
    bool failed_ = false;
    std::string error_;
};

LiveSession::LiveSession(std::unique_ptr<PacketSource> source, LiveSessionOptions options)
    : source_(std::move(source)),
      options_(withRetirement(withIndexSpill(std::move(options)))),
      queue_(options_.queuePackets, options_.queueBytes),
      analysis_(options_.analysis, queue_, options_.onFinding, options_.onUpdate) {
    if (options_.file) {
        file_ = std::make_unique<CaptureFileWriter>(*options_.file, source_->description());
    }
    sink_ = std::make_unique<Sink>(*this);
    for (LiveObserver* observer : options_.observers) {
        analysis_.addObserver(observer);
    }
}

LiveSession::~LiveSession() {
    if (captureThread_.joinable()) {
        source_->stop();
        captureThread_.join();
    }
    queue_.close();
}

void LiveSession::start() {
    startNs_ = wallClockNs();
    analysis_.start();
    captureThread_ = std::thread([this] { captureLoop(); });
}

void LiveSession::captureLoop() {
    std::string error;
    try {
        source_->run(*sink_);
        sink_->onBatchEnd();
        error = sink_->error();
    } catch (const LiveCaptureError& failure) {
        error = failure.what();
    }
    queue_.close();
    endWith(std::move(error));
}

void LiveSession::endWith(std::string error) {
    {
        const std::lock_guard lock(endMutex_);
        hasEnded_ = true;
        error_ = std::move(error);
        endNs_ = wallClockNs();
    }
    ended_.notify_all();
}

void LiveSession::stop() { source_->stop(); }

bool LiveSession::waitUntilEnded(std::chrono::milliseconds timeout) {
    std::unique_lock lock(endMutex_);
    return ended_.wait_for(lock, timeout, [this] { return hasEnded_; });
}

LiveSession::Result LiveSession::finish() {
    if (captureThread_.joinable()) {
        source_->stop();
        captureThread_.join();
    }
    Result result;
    LiveCaptureSummary& summary = result.summary;
    summary.source = source_->description();
    summary.kernel = source_->stats();
    summary.analysisDropped = queue_.dropped();
    summary.queueHighWater = queue_.highWater();
    summary.startNs = startNs_;
    summary.endNs = endNs_;
    summary.error = error_;
    if (options_.companion != nullptr) {
        try {
            options_.companion->finishInto(file_.get());
        } catch (const PcapngWriteError& error) {
            if (summary.error.empty()) {
                summary.error = error.what();
            }
        }
    }
    if (file_) {
        try {
            file_->close(summary.kernel, startNs_, endNs_);
        } catch (const PcapngWriteError& error) {
            if (summary.error.empty()) {
                summary.error = error.what();
            }
        }
        summary.written = file_->packetsWritten();
        summary.files.assign(file_->files().begin(), file_->files().end());
        summary.filesDeleted = file_->filesDeleted();
    }

    InputSummary input;
    input.path = summary.files.empty() ? "live:" + summary.source.device : summary.files.front();
    input.format = CaptureFormat{"pcapng", "none"};
    input.frames = summary.kernel.captured;
    for (const std::string& file : summary.files) {
        std::error_code error;
        const uintmax_t size = std::filesystem::file_size(file, error);
        input.bytes += error ? 0 : size;
    }
    if (summary.source.linkType != 0) {
        input.linkTypes.push_back(summary.source.linkType);
    }
    result.analysis = analysis_.finish({std::move(input)});
    summary.analysisCpuNs = analysis_.threadCpuNs();
    const PacketIndex& index = result.analysis.engine->packets();
    summary.indexBytesInMemory = index.memoryBytes();
    summary.indexBytesOnDisk = index.spilledBytes();
    summary.indexProblem = index.spillProblem();
    summary.connectionsRetired = result.analysis.engine->retiredConnections();
    summary.connectionBytes = result.analysis.engine->connectionBytes();
    return result;
}

}  // namespace tcpscope
