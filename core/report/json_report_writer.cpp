#include "report/json_report_writer.hpp"

#include <array>
#include <bit>
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

constexpr size_t kMaxIndent = JsonStreamWriter::kShortIndent;
constexpr auto& kItemBreak = json_layout::kItemBreak;
constexpr size_t kMaxBreakBytes = kMaxIndent + 2;
constexpr size_t kLongKeyBytes = JsonStreamWriter::kShortKeyBytes;

template <typename Tree>
void dumpTree(std::string& buffer, const Tree& tree, bool compact, unsigned indentStep, unsigned currentIndent) {
    // nlohmann's own serializer, so that a small tree inside the stream looks exactly as it
    // would inside a whole dumped document. Text that is not valid UTF-8 (which no reader should
    // let through) gets U+FFFD for its bad bytes: the writer never throws on it.
    nlohmann::detail::serializer<Tree> serializer(nlohmann::detail::output_adapter<char>(buffer), ' ',
                                                  nlohmann::detail::error_handler_t::replace);
    serializer.dump(tree, !compact, false, indentStep, currentIndent);
}

__extension__ using Wide = unsigned __int128;  // GCC and Clang

// "00" to "99", for writing digits two at a time.
constexpr std::array<char, 200> kDigitPairs = [] {
    std::array<char, 200> pairs{};
    for (size_t number = 0; number < 100; ++number) {
        pairs[2 * number] = static_cast<char>('0' + number / 10);
        pairs[2 * number + 1] = static_cast<char>('0' + number % 10);
    }
    return pairs;
}();

// Writes the digits of `number` at `out` (room for kNumberBytes); returns the end.
char* writeDigits(char* out, uint64_t number) {
    return std::to_chars(out, out + kNumberBytes, number).ptr;
}

// Most doubles of a report are whole microseconds (epoch times, durations and shares rounded
// to 6 or 3 decimals). Such a value's shortest round-trip form is its decimal on the 1e-6 grid
// with the trailing zeros cut (no shorter decimal rounds to it: grid decimals are more than a
// gap between doubles apart), and nlohmann's Grisu2 prints exactly that whenever the decimal is
// inside the interval Grisu2 searches: the value's rounding interval (half a gap either side)
// narrowed by 2 units of its 64-bit significands, at most 2^-8 of a gap. Written here without
// Grisu2's work when the decimal is more than 2^-6 of a gap inside (checked in exact integer
// arithmetic); nullptr for any other value (nlohmann formats those).
char* writeMicrosecondDecimal(char* out, double number) {
    const double magnitude = std::fabs(number);
    // From 1e-4 (below, nlohmann writes an exponent) to 2^32 (from there the gap between doubles
    // reaches 1e-6, so two grid decimals could round to one double).
    constexpr double kSmallest = 1e-4;
    constexpr double kLargest = 4294967296.0;
    if (!(magnitude >= kSmallest && magnitude < kLargest)) {
        return nullptr;
    }
    // magnitude = significand * 2^-shift exactly; magnitude * 1e6 and its distance to the nearest
    // whole number of microseconds in integers (the product needs 73 bits).
    constexpr int kSignificandBits = 52;
    constexpr int kExponentBias = 1023;
    const auto bits = std::bit_cast<uint64_t>(magnitude);
    const uint64_t significand = (bits & ((uint64_t{1} << kSignificandBits) - 1)) | (uint64_t{1} << kSignificandBits);
    const int shift = kExponentBias + kSignificandBits - static_cast<int>(bits >> kSignificandBits);  // 21..66 here
    constexpr uint64_t kUnitsPerWhole = 1'000'000;
    const Wide scaled = Wide{significand} * kUnitsPerWhole;
    const auto micros = static_cast<uint64_t>((scaled + (Wide{1} << (shift - 1))) >> shift);
    const Wide onGrid = Wide{micros} << shift;
    const Wide offset = scaled > onGrid ? scaled - onGrid : onGrid - scaled;  // in units of 2^-shift microseconds
    // The gap below is 2^-shift (in value units), half that at a power of two.
    const bool powerOfTwo = significand == uint64_t{1} << kSignificandBits;
    constexpr uint64_t kInsideSixtyFourths = 31;  // within 31/64 of the gap below (the smaller one)
    if (offset * (powerOfTwo ? 128 : 64) > Wide{kInsideSixtyFourths * kUnitsPerWhole}) {
        return nullptr;
    }
    if (std::signbit(number)) {
        *out++ = '-';
    }
    out = writeDigits(out, micros / kUnitsPerWhole);
    *out++ = '.';
    const auto fraction = static_cast<uint32_t>(micros % kUnitsPerWhole);
    if (fraction == 0) {
        *out++ = '0';
        return out;
    }
    // Six digits, two at a time, then the trailing zeros cut (the fraction is not 0).
    constexpr uint32_t kHundred = 100;
    std::memcpy(out, &kDigitPairs[2 * (fraction / (kHundred * kHundred))], 2);
    std::memcpy(out + 2, &kDigitPairs[2 * (fraction / kHundred % kHundred)], 2);
    std::memcpy(out + 4, &kDigitPairs[2 * (fraction % kHundred)], 2);
    size_t digits = 6;
    while (out[digits - 1] == '0') {
        --digits;
    }
    return out + digits;
}

// A finite double as nlohmann writes it (shortest round-trip form, ".0" on whole numbers).
char* writeDouble(char* out, double number) {
    if (char* end = writeMicrosecondDecimal(out, number)) {
        return end;
    }
    return nlohmann::detail::to_chars(out, out + kNumberBytes, number);
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

void JsonStreamWriter::putLarge(const char* text, size_t size) {
    flush();
    if (size > kBufferBytes) {
        out_.write(text, static_cast<std::streamsize>(size));
        return;
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
    if (levels_.empty()) {
        return;
    }
    if (levels_.size() * indentStep_ > kMaxIndent) {
        Level& level = levels_.back();
        put(kItemBreak.data() + (level.empty ? 1 : 0), level.empty ? 1 : 2);
        level.empty = false;
        for (size_t i = 0; i < levels_.size() * indentStep_; ++i) {
            put(' ');
        }
        return;
    }
    cursor_ = itemBreak(reserve(kMaxBreakBytes));
}

void JsonStreamWriter::beforeValue() {
    if (afterKey_) {
        afterKey_ = false;
    } else {
        startItem();
    }
}

void JsonStreamWriter::longKey(std::string_view name) {
    startItem();
    put('"');
    put(name);
    put("\": ", compact_ ? 2 : 3);
    afterKey_ = true;
}

bool JsonStreamWriter::isPlainName(std::string_view name) { return isPlain(name, true); }

void JsonStreamWriter::anyKey(std::string_view name) {
    if (isPlain(name, true)) {
        key(name);
        return;
    }
    startItem();
    writeText(name);
    put(": ", compact_ ? 1 : 2);
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
        if (indent + 2 <= json_layout::kShortBreakBytes) {
            // As in itemBreak(): a fixed-size block (the line break, the indentation, some spaces
            // after), then its length counted; the closing character follows below.
            char* at = reserve(json_layout::kShortBreakBytes + 1);
            std::memcpy(at, kItemBreak.data() + 1, json_layout::kShortBreakBytes);
            cursor_ = at + 1 + indent;
        } else if (indent <= kMaxIndent) {
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

void JsonStreamWriter::writeText(std::string_view text) {
    if (isPlain(text, true)) {
        if (text.size() <= kLongKeyBytes) {  // most text: quoted after one check of the room
            char* at = reserve(kLongKeyBytes + 2);
            *at++ = '"';
            std::memcpy(at, text.data(), text.size());
            at += text.size();
            *at++ = '"';
            cursor_ = at;
        } else {
            put('"');
            put(text);
            put('"');
        }
        return;
    }
    unsigned char highBits = 0;
    for (const char c : text) {
        highBits |= static_cast<unsigned char>(c);
    }
    if (highBits >= 0x80) {
        // Not ASCII: nlohmann's serializer checks the UTF-8 (and replaces what is invalid) as a tree would.
        tree_.clear();
        dumpTree(tree_, nlohmann::json(std::string(text)), compact_, indentStep_, 0);
        put(tree_);
        return;
    }
    writeEscaped(text);
}

void JsonStreamWriter::value(std::string_view text) {
    beforeValue();
    writeText(text);
    maybeFlush();
}

void JsonStreamWriter::value(uint64_t number) {
    beforeValue();
    cursor_ = writeDigits(reserve(kNumberBytes), number);
}

void JsonStreamWriter::value(int64_t number) {
    beforeValue();
    char* at = reserve(kNumberBytes);
    cursor_ = std::to_chars(at, at + kNumberBytes, number).ptr;
}

void JsonStreamWriter::value(double number) {
    beforeValue();
    if (!std::isfinite(number)) {
        put("null", 4);  // as nlohmann writes NaN and infinities
        return;
    }
    cursor_ = writeDouble(reserve(kNumberBytes), number);
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

template <typename Tree>
void JsonStreamWriter::writeTree(const Tree& tree) {
    using Type = typename Tree::value_t;
    // The containers and values read in place (get_ptr of the tree's own type), not through
    // nlohmann's iterators and conversions, which check the type again at every step.
    switch (tree.type()) {
        case Type::object:
            beginObject();
            for (const auto& [name, member] : *tree.template get_ptr<const typename Tree::object_t*>()) {
                anyKey(name);
                writeTree(member);
            }
            endObject();
            return;
        case Type::array:
            beginArray();
            for (const Tree& item : *tree.template get_ptr<const typename Tree::array_t*>()) {
                writeTree(item);
            }
            endArray();
            return;
        case Type::string: value(std::string_view(*tree.template get_ptr<const typename Tree::string_t*>())); return;
        case Type::boolean: value(*tree.template get_ptr<const typename Tree::boolean_t*>()); return;
        case Type::number_integer:
            value(int64_t{*tree.template get_ptr<const typename Tree::number_integer_t*>()});
            return;
        case Type::number_unsigned:
            value(uint64_t{*tree.template get_ptr<const typename Tree::number_unsigned_t*>()});
            return;
        case Type::number_float: value(*tree.template get_ptr<const typename Tree::number_float_t*>()); return;
        case Type::null: null(); return;
        case Type::binary:
        case Type::discarded: break;
    }
    // What a report never holds, in nlohmann's own form.
    beforeValue();
    tree_.clear();
    dumpTree(tree_, tree, compact_, indentStep_, static_cast<unsigned>(levels_.size()) * indentStep_);
    put(tree_);
    maybeFlush();
}

void JsonStreamWriter::value(const nlohmann::json& tree) { writeTree(tree); }

void JsonStreamWriter::value(const nlohmann::ordered_json& tree) { writeTree(tree); }

}  // namespace tcpscope
