#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tcpscope {

/// The three kinds of `tcpscope-record/1` records (docs/records.md).
enum class RecordType : uint8_t { Flow, Finding, Series };
inline constexpr size_t kRecordTypeCount = 3;

/// "flow", "finding" or "series": the `record` field.
constexpr std::string_view recordTypeName(RecordType type) {
    switch (type) {
        case RecordType::Flow: return "flow";
        case RecordType::Finding: return "finding";
        case RecordType::Series: return "series";
    }
    return "flow";
}

/// A record whose line is made later by `makeLine`, which must hold copies of what it reads.
struct LaterRecord {
    RecordType type = RecordType::Flow;
    int64_t tsNs = 0;
    std::function<std::string()> makeLine;
};

/// Where records go: a directory of zstd files, ClickHouse, a test's memory.
class RecordSink {
public:
    virtual ~RecordSink() = default;
    /// One record: its JSON object on one line (no newline), and its time (`ts_ns`, UTC ns).
    virtual void write(RecordType type, int64_t tsNs, std::string_view line) = 0;
    /// Records whose lines are made later (LaterRecord::makeLine), in order: a sink with a thread of
    /// its own (QueuedRecordSink) makes them there, taking them in one hand-over, so that the caller
    /// pays neither for the formatting nor for a wake-up per record; by default they are made at once.
    virtual void writeLater(std::vector<LaterRecord> records) {
        for (LaterRecord& record : records) {
            write(record.type, record.tsNs, record.makeLine());
        }
    }
    /// Sends or writes out what it holds so far, without waiting for a server that does not answer
    /// (a live capture calls it every second or so); by default nothing.
    virtual void flush() {}
};

}  // namespace tcpscope
