#include "records/record_line.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "text/json_text.hpp"

namespace tcpscope {

RecordLine::RecordLine(const RecordSource& source, RecordType type, int64_t tsNs, std::string_view communityId) {
    text_.reserve(512);
    text_ += '{';
    field("record", recordTypeName(type));
    field("schema", kRecordSchema);
    field("host", source.host);
    field("capture_id", source.captureId);
    field("tcpscope_version", source.version);
    field("ts_ns", source.origin.epochNs(tsNs));
    field("community_id", communityId);
}

void RecordLine::key(std::string_view name) {
    if (text_.size() > 1) {
        text_ += ',';
    }
    text_ += '"';
    text_ += name;  // the keys are ours: plain ASCII
    text_ += "\":";
}

void RecordLine::string(std::string_view text) {
    for (const char c : text) {
        if (static_cast<unsigned char>(c) >= 0x80) {
            // Not ASCII: nlohmann checks the UTF-8 and replaces what is invalid.
            text_ += jsonText(nlohmann::json(std::string(text)));
            return;
        }
    }
    text_ += '"';
    size_t plainFrom = 0;  // runs of characters that need no escape are appended at once
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20) {
            continue;
        }
        text_.append(text.substr(plainFrom, i - plainFrom));
        plainFrom = i + 1;
        switch (c) {
            case '"': text_ += "\\\""; break;
            case '\\': text_ += "\\\\"; break;
            case '\n': text_ += "\\n"; break;
            case '\t': text_ += "\\t"; break;
            case '\r': text_ += "\\r"; break;
            default: fmt::format_to(std::back_inserter(text_), "\\u{:04x}", static_cast<unsigned>(c));
        }
    }
    text_.append(text.substr(plainFrom));
    text_ += '"';
}

void RecordLine::number(double value) {
    if (!std::isfinite(value)) {
        text_ += "null";  // as nlohmann writes it
        return;
    }
    char buffer[32];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
    text_.append(buffer, error == std::errc() ? end : buffer);
}

void RecordLine::field(std::string_view name, std::string_view text) {
    key(name);
    string(text);
}

void RecordLine::field(std::string_view name, int64_t value) {
    key(name);
    fmt::format_to(std::back_inserter(text_), "{}", value);
}

void RecordLine::field(std::string_view name, uint64_t value) {
    key(name);
    fmt::format_to(std::back_inserter(text_), "{}", value);
}

void RecordLine::field(std::string_view name, double value) {
    key(name);
    number(value);
}

void RecordLine::nullField(std::string_view name) {
    key(name);
    text_ += "null";
}

void RecordLine::field(std::string_view name, std::span<const std::string> texts) {
    key(name);
    text_ += '[';
    for (size_t i = 0; i < texts.size(); ++i) {
        text_ += i > 0 ? "," : "";
        string(texts[i]);
    }
    text_ += ']';
}

void RecordLine::field(std::string_view name, std::span<const double> numbers) {
    key(name);
    text_ += '[';
    for (size_t i = 0; i < numbers.size(); ++i) {
        text_ += i > 0 ? "," : "";
        number(numbers[i]);
    }
    text_ += ']';
}

void RecordLine::field(std::string_view name, std::span<const uint32_t> numbers) {
    key(name);
    text_ += '[';
    for (size_t i = 0; i < numbers.size(); ++i) {
        text_ += i > 0 ? "," : "";
        fmt::format_to(std::back_inserter(text_), "{}", numbers[i]);
    }
    text_ += ']';
}

std::string RecordLine::take() && {
    text_ += '}';
    return std::move(text_);
}

}  // namespace tcpscope
