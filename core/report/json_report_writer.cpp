#include "report/json_report_writer.hpp"

#include <array>
#include <charconv>
#include <cmath>

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

template <typename Tree>
void dumpTree(std::string& buffer, const Tree& tree, unsigned indentStep, unsigned currentIndent) {
    // nlohmann's own serializer, so that a small tree inside the stream looks exactly as it
    // would inside a whole dumped document.
    nlohmann::detail::serializer<Tree> serializer(nlohmann::detail::output_adapter<char>(buffer), ' ',
                                                  nlohmann::detail::error_handler_t::strict);
    serializer.dump(tree, true, false, indentStep, currentIndent);
}

}  // namespace

JsonStreamWriter::JsonStreamWriter(std::ostream& out, unsigned indentStep) : out_(out), indentStep_(indentStep) {
    buffer_.reserve(kFlushBytes + 4096);
}

JsonStreamWriter::~JsonStreamWriter() {
    try {
        flush();
    } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor must not throw; the stream keeps its error state
    }
}

void JsonStreamWriter::flush() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
}

void JsonStreamWriter::continueArray(size_t depth) {
    levels_.assign(depth > 0 ? depth - 1 : 0, Level{false, false});
    levels_.push_back(Level{true, false});
    afterKey_ = false;
}

void JsonStreamWriter::raw(std::string_view text) {
    buffer_.append(text);
    maybeFlush();
}

void JsonStreamWriter::startItem() {
    if (!levels_.empty()) {
        Level& level = levels_.back();
        buffer_ += level.empty ? "\n" : ",\n";
        level.empty = false;
        buffer_.append(levels_.size() * indentStep_, ' ');
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
    startItem();
    writeEscaped(name);
    buffer_ += ": ";
    afterKey_ = true;
}

void JsonStreamWriter::beginObject() {
    beforeValue();
    buffer_ += '{';
    levels_.push_back(Level{false, true});
}

void JsonStreamWriter::beginArray() {
    beforeValue();
    buffer_ += '[';
    levels_.push_back(Level{true, true});
}

void JsonStreamWriter::end(char closing) {
    const bool wasEmpty = levels_.back().empty;
    levels_.pop_back();
    if (!wasEmpty) {
        buffer_ += '\n';
        buffer_.append(levels_.size() * indentStep_, ' ');
    }
    buffer_ += closing;
    maybeFlush();
}

void JsonStreamWriter::endObject() { end('}'); }

void JsonStreamWriter::endArray() { end(']'); }

void JsonStreamWriter::writeEscaped(std::string_view text) {
    buffer_ += '"';
    size_t plainStart = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const auto byte = static_cast<unsigned char>(c);
        if (!kNeedsEscape[byte]) {
            continue;
        }
        // Characters that need no escape are copied in runs, not one by one.
        buffer_.append(text.data() + plainStart, i - plainStart);
        plainStart = i + 1;
        switch (c) {
            case '"': buffer_ += "\\\""; break;
            case '\\': buffer_ += "\\\\"; break;
            case '\b': buffer_ += "\\b"; break;
            case '\t': buffer_ += "\\t"; break;
            case '\n': buffer_ += "\\n"; break;
            case '\f': buffer_ += "\\f"; break;
            case '\r': buffer_ += "\\r"; break;
            default: {
                static constexpr char kHex[] = "0123456789abcdef";
                buffer_ += "\\u00";
                buffer_ += kHex[byte >> 4];
                buffer_ += kHex[byte & 0xf];
            }
        }
    }
    buffer_.append(text.data() + plainStart, text.size() - plainStart);
    buffer_ += '"';
}

void JsonStreamWriter::value(std::string_view text) {
    unsigned char highBits = 0;
    for (const char c : text) {
        highBits |= static_cast<unsigned char>(c);
    }
    if (highBits >= 0x80) {
        // Not ASCII: nlohmann's serializer checks the UTF-8 (and refuses invalid text) as a tree would.
        value(nlohmann::json(std::string(text)));
        return;
    }
    beforeValue();
    writeEscaped(text);
    maybeFlush();
}

void JsonStreamWriter::value(uint64_t number) {
    beforeValue();
    std::array<char, kNumberBytes> digits{};
    const auto result = std::to_chars(digits.data(), digits.data() + digits.size(), number);
    buffer_.append(digits.data(), result.ptr);
}

void JsonStreamWriter::value(int64_t number) {
    beforeValue();
    std::array<char, kNumberBytes> digits{};
    const auto result = std::to_chars(digits.data(), digits.data() + digits.size(), number);
    buffer_.append(digits.data(), result.ptr);
}

void JsonStreamWriter::value(double number) {
    beforeValue();
    if (!std::isfinite(number)) {
        buffer_ += "null";  // as nlohmann writes NaN and infinities
        return;
    }
    std::array<char, kNumberBytes> digits{};
    // nlohmann's shortest round-trip form (with ".0" on whole numbers), byte for byte.
    char* end = nlohmann::detail::to_chars(digits.data(), digits.data() + digits.size(), number);
    buffer_.append(digits.data(), end);
}

void JsonStreamWriter::value(bool flag) {
    beforeValue();
    buffer_ += flag ? "true" : "false";
}

void JsonStreamWriter::null() {
    beforeValue();
    buffer_ += "null";
}

void JsonStreamWriter::value(const nlohmann::json& tree) {
    beforeValue();
    dumpTree(buffer_, tree, indentStep_, static_cast<unsigned>(levels_.size()) * indentStep_);
    maybeFlush();
}

void JsonStreamWriter::value(const nlohmann::ordered_json& tree) {
    beforeValue();
    dumpTree(buffer_, tree, indentStep_, static_cast<unsigned>(levels_.size()) * indentStep_);
    maybeFlush();
}

}  // namespace tcpscope
