#pragma once
#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tcpscope {

namespace json_layout {
/// A comma, a line break and up to JsonStreamWriter::kShortIndent spaces: what goes before an item.
inline constexpr size_t kMaxBreakIndent = 256;
inline constexpr std::array<char, kMaxBreakIndent + 2> kItemBreak = [] {
    std::array<char, kMaxBreakIndent + 2> text{};
    text.fill(' ');
    text[0] = ',';
    text[1] = '\n';
    return text;
}();
/// Breaks up to this long (indentation of 14) are copied as one fixed-size block.
inline constexpr size_t kShortBreakBytes = 16;
}  // namespace json_layout

/// Writes JSON text straight to a stream, in exactly the layout of nlohmann's dump(indentStep)
/// (same separators, indentation, escapes and number forms), so a report of a million flows is
/// written in constant memory instead of being built as a tree first. Values of a container
/// follow one another; inside an object each value is preceded by key(). Output is buffered and
/// written in large blocks; it is complete after flush() (or the destructor).
class JsonStreamWriter {
public:
    /// Selects the layout of nlohmann's dump() with no indent: one line, no spaces.
    struct Compact {};
    /// Indentation up to this is written as one block; deeper, space by space.
    static constexpr size_t kShortIndent = json_layout::kMaxBreakIndent;
    /// Keys and plain text up to this long are written after one check of the buffer's room.
    static constexpr size_t kShortKeyBytes = 64;

    JsonStreamWriter(std::ostream& out, unsigned indentStep);
    JsonStreamWriter(std::ostream& out, Compact /*layout*/);
    /// A writer to `out` in the layout of `layout` (for a part that another thread formats).
    JsonStreamWriter(std::ostream& out, const JsonStreamWriter& layout);
    JsonStreamWriter(const JsonStreamWriter&) = delete;
    JsonStreamWriter& operator=(const JsonStreamWriter&) = delete;
    ~JsonStreamWriter();

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    /// The key of the next value of the current object: one of the report's fixed names, which
    /// need no escape (written as they are; checked in debug builds).
    [[gnu::always_inline]] void key(std::string_view name) {
        assert(isPlainName(name));
        if (name.size() > kShortKeyBytes || levels_.size() * indentStep_ > kShortIndent) {
            longKey(name);
            return;
        }
        // Inline, so that a literal name is copied with its length known; one check of the room.
        char* at = itemBreak(reserve(kShortIndent + 2 + kShortKeyBytes + 4));
        *at++ = '"';
        std::memcpy(at, name.data(), name.size());
        at += name.size();
        std::memcpy(at, "\": ", 3);
        cursor_ = at + (compact_ ? 2 : 3);
        afterKey_ = true;
    }

    void value(std::string_view text);
    void value(const char* text) { value(std::string_view(text)); }
    void value(const std::string& text) { value(std::string_view(text)); }
    void value(uint64_t number);
    void value(uint32_t number) { value(uint64_t{number}); }
    void value(int64_t number);
    void value(double number);
    void value(bool flag);
    void null();
    /// A whole tree (a small one: evidence, a capture section), at the current indentation.
    void value(const nlohmann::json& tree);
    void value(const nlohmann::ordered_json& tree);

    /// key(name) and its value.
    template <typename T>
    void field(std::string_view name, const T& item) {
        key(name);
        value(item);
    }
    /// key(name) and its value if `present`, else null.
    template <typename T>
    void fieldOrNull(std::string_view name, bool present, const T& item) {
        key(name);
        if (present) {
            value(item);
        } else {
            null();
        }
    }

    /// Makes this (new) writer continue an array that another writer has open at nesting `depth`
    /// (1 = the top-level value) and that already holds values: its output, given to that writer's
    /// raw(), reads as if that writer had written the values itself. Lets a second thread format
    /// part of a long array.
    void continueArray(size_t depth);
    /// Appends JSON text formatted by a writer made with continueArray() for the array open here.
    void raw(std::string_view text);

    /// Writes what is buffered to the stream.
    void flush();

private:
    struct Level {
        bool isArray = false;
        bool empty = true;
    };

    // Separator and indentation before a value of an array, or before a key.
    void startItem();
    // startItem()'s text at `at` (room for the break, indentation at most kShortIndent); returns its end.
    // Inline, as part of key().
    char* itemBreak(char* at) {
        Level& level = levels_.back();
        const size_t skipComma = level.empty ? 1 : 0;
        level.empty = false;
        if (compact_) {
            *at = ',';
            return at + 1 - skipComma;  // the comma alone (or nothing)
        }
        // The break of the usual shallow levels is copied as one fixed-size block (cheaper than a
        // copy of its exact length), then only its length counted.
        const size_t indent = levels_.size() * indentStep_;
        if (indent + 2 <= json_layout::kShortBreakBytes) {
            std::memcpy(at, json_layout::kItemBreak.data() + skipComma, json_layout::kShortBreakBytes);
        } else {
            std::memcpy(at, json_layout::kItemBreak.data() + skipComma, 2 - skipComma + indent);
        }
        return at + 2 - skipComma + indent;
    }
    // key() for names longer than kShortKeyBytes or indented deeper than kShortIndent.
    void longKey(std::string_view name);
    static bool isPlainName(std::string_view name);
    // key() for any text (a tree's member name): escaped as nlohmann escapes it.
    void anyKey(std::string_view name);
    // Quoted, escaped text; non-ASCII text checked by nlohmann, bytes that are not UTF-8 written as U+FFFD.
    void writeText(std::string_view text);
    // A tree through this writer's own calls (what nlohmann's dump() would print, faster).
    template <typename Tree>
    void writeTree(const Tree& tree);
    // startItem() for array values; nothing after a key.
    void beforeValue();
    void end(char closing);
    void writeEscaped(std::string_view text);
    void maybeFlush() {
        if (used() >= kFlushBytes) {
            flush();
        }
    }
    [[nodiscard]] size_t used() const { return static_cast<size_t>(cursor_ - buffer_.get()); }
    // Appends to the buffer (written in blocks: a plain pointer, not a string's checks per append).
    void put(char c) {
        if (cursor_ == end_) {
            flush();
        }
        *cursor_++ = c;
    }
    void put(const char* text, size_t size) {
        if (size > static_cast<size_t>(end_ - cursor_)) {
            putLarge(text, size);
            return;
        }
        std::memcpy(cursor_, text, size);
        cursor_ += size;
    }
    void put(std::string_view text) { put(text.data(), text.size()); }
    void putLarge(const char* text, size_t size);
    // The cursor, with room for `bytes` (at most kBufferBytes) after it.
    char* reserve(size_t bytes) {
        if (bytes > static_cast<size_t>(end_ - cursor_)) {
            flush();
        }
        return cursor_;
    }

    static constexpr size_t kFlushBytes = size_t{1} << 18;
    static constexpr size_t kBufferBytes = kFlushBytes + 4096;

    std::ostream& out_;
    unsigned indentStep_;
    bool compact_ = false;
    std::unique_ptr<char[]> buffer_;
    char* cursor_ = nullptr;
    char* end_ = nullptr;
    std::string tree_;  // a tree's text on its way into the buffer
    std::vector<Level> levels_;
    bool afterKey_ = false;
};

}  // namespace tcpscope
