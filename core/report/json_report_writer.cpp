#include "report/json_report_writer.hpp"

#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>

namespace tcpscope {

namespace {

constexpr size_t kNumberBytes = 64;

// Characters JSON strings must escape: control characters, '"' and '\\'. One table load per
// character instead of three compares.
constexpr std::array<bool, 256> kNeedsEscape = [] {
    std::array<bool, 256> table{};
    for (size_t byte = 0; byte < 0x20; ++byte) {
        table[byte] = true;
    }
    table['"'] = true;
    table['\\'] = true;
    return table;
}();

constexpr uint64_t kEveryByte = 0x0101010101010101ULL;
constexpr uint64_t kHighBits = 0x8080808080808080ULL;

// Whether any byte of `word` equals `byte` (exact for "any": borrows only follow a true match).
constexpr uint64_t hasByte(uint64_t word, uint8_t byte) {
    const uint64_t zeroWhereEqual = word ^ (kEveryByte * byte);
    return (zeroWhereEqual - kEveryByte) & ~zeroWhereEqual & kHighBits;
}

bool isPlainWord(uint64_t word, bool asciiOnly) {
    const uint64_t control = (word - kEveryByte * 0x20) & ~word & kHighBits;  // a byte below 0x20
    const uint64_t high = asciiOnly ? word & kHighBits : 0;
    return (control | high | hasByte(word, '"') | hasByte(word, '\\')) == 0;
}

// Whether `text` needs no escape (and, with `asciiOnly`, is ASCII). Short text (keys, most
// values) byte by byte; longer text eight bytes at a time, the last word overlapping.
bool isPlain(std::string_view text, bool asciiOnly) {
    if (text.size() < sizeof(uint64_t)) {
        const unsigned char highest = asciiOnly ? 0x7f : 0xff;
        for (const char c : text) {
            const auto byte = static_cast<unsigned char>(c);
            if (kNeedsEscape[byte] || byte > highest) {
                return false;
            }
        }
        return true;
    }
    const auto plainAt = [&](size_t at) {
        uint64_t word = 0;
        std::memcpy(&word, text.data() + at, sizeof(word));
        return isPlainWord(word, asciiOnly);
    };
    for (size_t at = 0; at + sizeof(uint64_t) < text.size(); at += sizeof(uint64_t)) {
        if (!plainAt(at)) {
            return false;
        }
    }
    return plainAt(text.size() - sizeof(uint64_t));
}

// A line break and up to kMaxIndent spaces, preceded by a comma: what goes before an item.
constexpr size_t kMaxIndent = 256;
constexpr std::array<char, kMaxIndent + 2> kItemBreak = [] {
    std::array<char, kMaxIndent + 2> text{};
    text.fill(' ');
    text[0] = ',';
    text[1] = '\n';
    return text;
}();

template <typename Tree>
void dumpTree(std::string& buffer, const Tree& tree, bool compact, unsigned indentStep, unsigned currentIndent) {
    // nlohmann's own serializer, so that a small tree inside the stream looks exactly as it
    // would inside a whole dumped document.
    nlohmann::detail::serializer<Tree> serializer(nlohmann::detail::output_adapter<char>(buffer), ' ',
                                                  nlohmann::detail::error_handler_t::strict);
    serializer.dump(tree, !compact, false, indentStep, currentIndent);
}

}  // namespace

JsonStreamWriter::JsonStreamWriter(std::ostream& out, unsigned indentStep)
    : out_(out),
      indentStep_(indentStep),
      buffer_(std::make_unique_for_overwrite<char[]>(kBufferBytes)),
      cursor_(buffer_.get()),
      end_(buffer_.get() + kBufferBytes) {}

JsonStreamWriter::JsonStreamWriter(std::ostream& out, Compact /*layout*/) : JsonStreamWriter(out, 0) {
    compact_ = true;
}

JsonStreamWriter::JsonStreamWriter(std::ostream& out, const JsonStreamWriter& layout)
    : JsonStreamWriter(out, layout.indentStep_) {
    compact_ = layout.compact_;
}

JsonStreamWriter::~JsonStreamWriter() {
    try {
        flush();
    } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor must not throw; the stream keeps its error state
    }
}

void JsonStreamWriter::flush() {
    out_.write(buffer_.get(), static_cast<std::streamsize>(used()));
    cursor_ = buffer_.get();
}

void JsonStreamWriter::put(const char* text, size_t size) {
    if (size > static_cast<size_t>(end_ - cursor_)) {
        flush();
        if (size > kBufferBytes) {
            out_.write(text, static_cast<std::streamsize>(size));
            return;
        }
    }
    std::memcpy(cursor_, text, size);
    cursor_ += size;
}

void JsonStreamWriter::continueArray(size_t depth) {
    levels_.assign(depth > 0 ? depth - 1 : 0, Level{false, false});
    levels_.push_back(Level{true, false});
    afterKey_ = false;
}

void JsonStreamWriter::raw(std::string_view text) {
    put(text);
    maybeFlush();
}

void JsonStreamWriter::startItem() {
    if (!levels_.empty()) {
        Level& level = levels_.back();
        const size_t indent = levels_.size() * indentStep_;
        const size_t skipComma = level.empty ? 1 : 0;
        level.empty = false;
        if (compact_) {
            put(kItemBreak.data() + skipComma, 1 - skipComma);  // the comma alone
        } else if (indent <= kMaxIndent) {
            put(kItemBreak.data() + skipComma, 2 - skipComma + indent);
        } else {
            put(kItemBreak.data() + skipComma, 2 - skipComma);
            for (size_t i = 0; i < indent; ++i) {
                put(' ');
            }
        }
    }
}

void JsonStreamWriter::beforeValue() {
    if (afterKey_) {
        afterKey_ = false;
    } else {
        startItem();
    }
}

void JsonStreamWriter::key(std::string_view name) {
    assert(isPlain(name, true));
    startItem();
    put('"');
    put(name);
    put("\": ", compact_ ? 2 : 3);
    afterKey_ = true;
}

void JsonStreamWriter::beginObject() {
    beforeValue();
    put('{');
    levels_.push_back(Level{false, true});
}

void JsonStreamWriter::beginArray() {
    beforeValue();
    put('[');
    levels_.push_back(Level{true, true});
}

void JsonStreamWriter::end(char closing) {
    const bool wasEmpty = levels_.back().empty;
    levels_.pop_back();
    if (!wasEmpty && !compact_) {
        const size_t indent = levels_.size() * indentStep_;
        if (indent <= kMaxIndent) {
            put(kItemBreak.data() + 1, 1 + indent);
        } else {
            put('\n');
            for (size_t i = 0; i < indent; ++i) {
                put(' ');
            }
        }
    }
    put(closing);
    maybeFlush();
}

void JsonStreamWriter::endObject() { end('}'); }

void JsonStreamWriter::endArray() { end(']'); }

void JsonStreamWriter::writeEscaped(std::string_view text) {
    put('"');
    if (isPlain(text, false)) {
        put(text);
        put('"');
        return;
    }
    size_t plainStart = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const auto byte = static_cast<unsigned char>(c);
        if (!kNeedsEscape[byte]) {
            continue;
        }
        // Characters that need no escape are copied in runs, not one by one.
        put(text.data() + plainStart, i - plainStart);
        plainStart = i + 1;
        switch (c) {
            case '"': put("\\\"", 2); break;
            case '\\': put("\\\\", 2); break;
            case '\b': put("\\b", 2); break;
            case '\t': put("\\t", 2); break;
            case '\n': put("\\n", 2); break;
            case '\f': put("\\f", 2); break;
            case '\r': put("\\r", 2); break;
            default: {
                static constexpr char kHex[] = "0123456789abcdef";
                put("\\u00", 4);
                put(kHex[byte >> 4]);
                put(kHex[byte & 0xf]);
            }
        }
    }
    put(text.data() + plainStart, text.size() - plainStart);
    put('"');
}

void JsonStreamWriter::value(std::string_view text) {
    if (!isPlain(text, true)) {
        unsigned char highBits = 0;
        for (const char c : text) {
            highBits |= static_cast<unsigned char>(c);
        }
        if (highBits >= 0x80) {
            // Not ASCII: nlohmann's serializer checks the UTF-8 (and refuses invalid text) as a tree would.
            value(nlohmann::json(std::string(text)));
            return;
        }
    }
    beforeValue();
    writeEscaped(text);
    maybeFlush();
}

void JsonStreamWriter::value(uint64_t number) {
    beforeValue();
    std::array<char, kNumberBytes> digits{};
    const auto result = std::to_chars(digits.data(), digits.data() + digits.size(), number);
    put(digits.data(), static_cast<size_t>(result.ptr - digits.data()));
}

void JsonStreamWriter::value(int64_t number) {
    beforeValue();
    std::array<char, kNumberBytes> digits{};
    const auto result = std::to_chars(digits.data(), digits.data() + digits.size(), number);
    put(digits.data(), static_cast<size_t>(result.ptr - digits.data()));
}

void JsonStreamWriter::value(double number) {
    beforeValue();
    if (!std::isfinite(number)) {
        put("null", 4);  // as nlohmann writes NaN and infinities
        return;
    }
    std::array<char, kNumberBytes> digits{};
    // nlohmann's shortest round-trip form (with ".0" on whole numbers), byte for byte.
    char* end = nlohmann::detail::to_chars(digits.data(), digits.data() + digits.size(), number);
    put(digits.data(), static_cast<size_t>(end - digits.data()));
}

void JsonStreamWriter::value(bool flag) {
    beforeValue();
    if (flag) {
        put("true", 4);
    } else {
        put("false", 5);
    }
}

void JsonStreamWriter::null() {
    beforeValue();
    put("null", 4);
}

void JsonStreamWriter::value(const nlohmann::json& tree) {
    beforeValue();
    tree_.clear();
    dumpTree(tree_, tree, compact_, indentStep_, static_cast<unsigned>(levels_.size()) * indentStep_);
    put(tree_);
    maybeFlush();
}

void JsonStreamWriter::value(const nlohmann::ordered_json& tree) {
    beforeValue();
    tree_.clear();
    dumpTree(tree_, tree, compact_, indentStep_, static_cast<unsigned>(levels_.size()) * indentStep_);
    put(tree_);
    maybeFlush();
}

}  // namespace tcpscope
