#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "records/record_sink.hpp"

namespace tcpscope {

/// Hands records to another sink on a thread of its own, so that the thread that makes them (a live
/// capture's analysis) never waits for a slow disk or server: write() only queues, the thread writes
/// the records into the sink in order and flushes it (RecordSink::flush) every `flushInterval`. The
/// queue is bounded: a record that would take it past `limitBytes` is dropped and counted.
class QueuedRecordSink : public RecordSink {
public:
    QueuedRecordSink(RecordSink& sink, std::chrono::milliseconds flushInterval, size_t limitBytes = size_t{64} << 20);
    ~QueuedRecordSink() override;
    QueuedRecordSink(const QueuedRecordSink&) = delete;
    QueuedRecordSink& operator=(const QueuedRecordSink&) = delete;

    void write(RecordType type, int64_t tsNs, std::string_view line) override;
    void writeLater(std::vector<LaterRecord> records) override;
    /// Writes what is queued into the sink and ends the thread; the sink is the caller's again
    /// (to finish it). Records written after are dropped.
    void close();

    /// Records dropped: the queue was full, or the sink failed (see error()).
    [[nodiscard]] uint64_t recordsDropped() const;
    /// The most records that waited at once.
    [[nodiscard]] size_t highWater() const;
    /// Why the sink stopped taking records (its exception's message), empty if it did not.
    [[nodiscard]] std::string error() const;

private:
    struct Queued {
        RecordType type;
        int64_t tsNs;
        std::string line;
        std::function<std::string()> makeLine;  // set: the line is made on the sink's thread
    };
    // Queues `queued` unless it would take the queue past the limit; the caller holds mutex_.
    void pushLocked(Queued queued, size_t bytes);
    void loop();

    RecordSink& sink_;
    std::chrono::milliseconds flushInterval_;
    size_t limitBytes_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Queued> queue_;
    size_t queuedBytes_ = 0;
    size_t highWater_ = 0;
    uint64_t dropped_ = 0;
    std::string error_;
    bool closing_ = false;
    std::thread thread_;
};

}  // namespace tcpscope
