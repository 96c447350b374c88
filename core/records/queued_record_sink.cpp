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

void QueuedRecordSink::write(RecordType type, int64_t tsNs, std::string_view line) {
    {
        const std::lock_guard lock(mutex_);
        if (closing_ || !error_.empty() || queuedBytes_ + line.size() > limitBytes_) {
            ++dropped_;
            return;
        }
        queuedBytes_ += line.size();
        queue_.push_back({type, tsNs, std::string(line)});
        highWater_ = std::max(highWater_, queue_.size());
    }
    wake_.notify_one();
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
                sink_.write(taken[written].type, taken[written].tsNs, taken[written].line);
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
