#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

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

/// Where records go: a directory of zstd files, ClickHouse, a test's memory.
class RecordSink {
public:
    virtual ~RecordSink() = default;
    /// One record: its JSON object on one line (no newline), and its time (`ts_ns`, UTC ns).
    virtual void write(RecordType type, int64_t tsNs, std::string_view line) = 0;
    /// One record whose line `makeLine` writes (it must hold copies of what it reads): a sink with a
    /// thread of its own (QueuedRecordSink) calls it there, so that the caller does not pay for the
    /// formatting; by default it is called at once.
    virtual void writeLater(RecordType type, int64_t tsNs, std::function<std::string()> makeLine) {
        write(type, tsNs, makeLine());
    }
    /// Sends or writes out what it holds so far, without waiting for a server that does not answer
    /// (a live capture calls it every second or so); by default nothing.
    virtual void flush() {}
};

}  // namespace tcpscope
