#include "text/valid_utf8.hpp"

#include <cstdint>
#include <cstring>

namespace tcpscope {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr uint64_t kHighBits = 0x8080808080808080ULL;

/// The bytes of `text` from `at` that are ASCII, eight at a time (most input is ASCII).
size_t asciiRun(std::string_view text, size_t at) {
    const size_t start = at;
    while (text.size() - at >= sizeof(uint64_t)) {
        uint64_t word = 0;
        std::memcpy(&word, text.data() + at, sizeof(word));
        if ((word & kHighBits) != 0) {
            break;
        }
        at += sizeof(uint64_t);
    }
    while (at < text.size() && static_cast<unsigned char>(text[at]) < 0x80) {
        ++at;
    }
    return at - start;
}

/// One sequence that starts at a byte of 0x80 or more: its length when it is well-formed (Table
/// 3-7 of the Unicode standard), else 0 with `maximal` set to the length of its maximal ill-formed
/// part (at least 1), which one U+FFFD replaces.
size_t sequenceAt(std::string_view text, size_t at, size_t& maximal) {
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[at + i]); };
    const unsigned char lead = byte(0);
    size_t length = 0;
    unsigned char secondLow = 0x80;
    unsigned char secondHigh = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        secondLow = lead == 0xE0 ? 0xA0 : 0x80;   // no overlong form
        secondHigh = lead == 0xED ? 0x9F : 0xBF;  // no surrogate
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        secondLow = lead == 0xF0 ? 0x90 : 0x80;   // no overlong form
        secondHigh = lead == 0xF4 ? 0x8F : 0xBF;  // nothing above U+10FFFF
    } else {
        maximal = 1;  // a continuation byte, C0, C1 or F5 to FF: never a lead
        return 0;
    }
    size_t valid = 1;
    while (valid < length && at + valid < text.size()) {
        const unsigned char next = byte(valid);
        const unsigned char low = valid == 1 ? secondLow : 0x80;
        const unsigned char high = valid == 1 ? secondHigh : 0xBF;
        if (next < low || next > high) {
            break;
        }
        ++valid;
    }
    if (valid == length) {
        return length;
    }
    maximal = valid;
    return 0;
}

/// The length of the well-formed prefix of `text`.
size_t wellFormedPrefix(std::string_view text) {
    size_t at = 0;
    while (at < text.size()) {
        at += asciiRun(text, at);
        if (at == text.size()) {
            break;
        }
        size_t maximal = 0;
        const size_t length = sequenceAt(text, at, maximal);
        if (length == 0) {
            break;
        }
        at += length;
    }
    return at;
}

}  // namespace

bool isValidUtf8(std::string_view text) {
    return wellFormedPrefix(text) == text.size();
}

std::string validUtf8(std::string_view text) {
    size_t at = wellFormedPrefix(text);
    if (at == text.size()) {
        return std::string(text);
    }
    std::string valid;
    valid.reserve(text.size() + 2 * kReplacement.size());
    valid.append(text.substr(0, at));
    while (at < text.size()) {
        const size_t ascii = asciiRun(text, at);
        valid.append(text.substr(at, ascii));
        at += ascii;
        if (at == text.size()) {
            break;
        }
        size_t maximal = 0;
        const size_t length = sequenceAt(text, at, maximal);
        if (length > 0) {
            valid.append(text.substr(at, length));
            at += length;
        } else {
            valid.append(kReplacement);
            at += maximal;
        }
    }
    return valid;
}

bool makeValidUtf8(std::string& text) {
    if (isValidUtf8(text)) {
        return false;
    }
    text = validUtf8(text);
    return true;
}

std::string_view utf8Prefix(std::string_view text, size_t maxBytes) {
    if (text.size() <= maxBytes) {
        return text;
    }
    size_t cut = maxBytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
        --cut;  // text[cut] continues the sequence before it
    }
    return text.substr(0, cut);
}

}  // namespace tcpscope
