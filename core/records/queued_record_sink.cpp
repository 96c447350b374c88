#include "records/queued_record_sink.hpp"

#include <algorithm>
#include <exception>
#include <utility>

namespace tcpscope {

QueuedRecordSink::QueuedRecordSink(RecordSink& sink, std::chrono::milliseconds flushInterval, size_t limitBytes)
    : sink_(sink), flushInterval_(flushInterval), limitBytes_(limitBytes) {
    thread_ = std::thread([this] { loop(); });
}

QueuedRecordSink::~QueuedRecordSink() { close(); }

namespace {

// What a record still to be made is counted as against the limit: about a flow record's line.
constexpr size_t kUnmadeRecordBytes = 512;

}  // namespace

void QueuedRecordSink::write(RecordType type, int64_t tsNs, std::string_view line) {
    {
        const std::lock_guard lock(mutex_);
        pushLocked({type, tsNs, std::string(line), {}}, line.size());
    }
    wake_.notify_one();
}

void QueuedRecordSink::writeLater(std::vector<LaterRecord> records) {
    {
        const std::lock_guard lock(mutex_);
        for (LaterRecord& record : records) {
            pushLocked({record.type, record.tsNs, std::string(), std::move(record.makeLine)}, kUnmadeRecordBytes);
        }
    }
    wake_.notify_one();
}

void QueuedRecordSink::pushLocked(Queued queued, size_t bytes) {
    if (closing_ || !error_.empty() || queuedBytes_ + bytes > limitBytes_) {
        ++dropped_;
        return;
    }
    queuedBytes_ += bytes;
    queue_.push_back(std::move(queued));
    highWater_ = std::max(highWater_, queue_.size());
}

void QueuedRecordSink::close() {
    {
        const std::lock_guard lock(mutex_);
        closing_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) {
        thread_.join();
    }
}

void QueuedRecordSink::loop() {
    using Clock = std::chrono::steady_clock;
    auto nextFlush = Clock::now() + flushInterval_;
    std::deque<Queued> taken;
    std::unique_lock lock(mutex_);
    while (true) {
        wake_.wait_until(lock, nextFlush, [this] { return closing_ || !queue_.empty(); });
        taken.swap(queue_);
        queuedBytes_ = 0;
        const bool closing = closing_;
        lock.unlock();
        std::string failure;
        size_t written = 0;
        try {
            for (; written < taken.size(); ++written) {
                Queued& queued = taken[written];
                if (queued.makeLine) {
                    queued.line = queued.makeLine();
                }
                sink_.write(queued.type, queued.tsNs, queued.line);
            }
            if (!closing && Clock::now() >= nextFlush) {
                sink_.flush();
                nextFlush = Clock::now() + flushInterval_;
            }
        } catch (const std::exception& error) {
            failure = error.what();
        }
        const size_t notWritten = taken.size() - written;
        taken.clear();
        lock.lock();
        if (!failure.empty()) {
            error_ = std::move(failure);
            dropped_ += notWritten + queue_.size();
            queue_.clear();
            queuedBytes_ = 0;
        }
        if (closing || !error_.empty()) {
            return;
        }
    }
}

uint64_t QueuedRecordSink::recordsDropped() const {
    const std::lock_guard lock(mutex_);
    return dropped_;
}

size_t QueuedRecordSink::highWater() const {
    const std::lock_guard lock(mutex_);
    return highWater_;
}

std::string QueuedRecordSink::error() const {
    const std::lock_guard lock(mutex_);
    return error_;
}

}  // namespace tcpscope
