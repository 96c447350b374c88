#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "records/record_sink.hpp"
#include "records/record_source.hpp"

namespace tcpscope {

inline constexpr const char* kRecordSchema = "tcpscope-record/1";

/// One record's JSON object written as text, field by field, in the order of docs/records.md. It
/// starts with the fields every record has (record, schema, host, capture_id, tcpscope_version,
/// ts_ns, community_id: "" for a record of no single flow). Written directly rather than through a
/// JSON tree, which cost three quarters of an export's time on a large capture.
class RecordLine {
public:
    RecordLine(const RecordSource& source, RecordType type, int64_t tsNs, std::string_view communityId);

    void field(std::string_view key, std::string_view text);
    void field(std::string_view key, const char* text) { field(key, std::string_view(text)); }
    void field(std::string_view key, int64_t number);
    void field(std::string_view key, uint64_t number);
    void field(std::string_view key, uint32_t number) { field(key, uint64_t{number}); }
    void field(std::string_view key, uint16_t number) { field(key, uint64_t{number}); }
    void field(std::string_view key, double number);
    void nullField(std::string_view key);
    void field(std::string_view key, std::span<const std::string> texts);
    void field(std::string_view key, std::span<const double> numbers);
    void field(std::string_view key, std::span<const uint32_t> numbers);

    /// The record on one line, without a newline.
    [[nodiscard]] std::string take() &&;

private:
    void key(std::string_view name);
    void string(std::string_view text);
    void number(double value);

    std::string text_;
};

}  // namespace tcpscope
