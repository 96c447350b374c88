#include "text/valid_utf8.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace tcpscope;

namespace {
const std::string kReplacement = "\xEF\xBF\xBD";

std::string replacements(size_t count) {
    std::string text;
    for (size_t i = 0; i < count; ++i) {
        text += kReplacement;
    }
    return text;
}
}  // namespace

TEST_CASE("valid UTF-8 passes unchanged, NULs and control characters included", "[utf8]") {
    const std::string text =
        std::string("plain ASCII, caf\xC3\xA9, \xE2\x82\xAC, \xF0\x9F\x90\x9B, ") + '\0' + "\x01\x1b[31m";
    CHECK(isValidUtf8(text));
    CHECK(validUtf8(text) == text);
    std::string copy = text;
    CHECK_FALSE(makeValidUtf8(copy));
    CHECK(copy == text);
    CHECK(isValidUtf8(""));
    // The edges of each range of Table 3-7.
    CHECK(isValidUtf8("\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80\xF0\x90\x80\x80\xF4\x8F\xBF\xBF"));
}

TEST_CASE("each maximal ill-formed part becomes one U+FFFD", "[utf8]") {
    struct Case {
        const char* what;
        std::string input;
        std::string expected;
    };
    const Case cases[] = {
        {"a stray continuation byte", "a\x80z", "a" + kReplacement + "z"},
        {"bytes that never start a sequence", "\xC0\xC1\xF5\xFF", replacements(4)},
        {"an overlong slash", "\xC0\xAF", replacements(2)},
        {"an overlong three-byte form", "\xE0\x80\xAF", replacements(3)},
        {"an overlong four-byte form", "\xF0\x80\x80\xAF", replacements(4)},
        {"an encoded lone surrogate", "\xED\xA0\x80", replacements(3)},
        {"an encoded surrogate pair", "\xED\xA0\xBD\xED\xB2\xA9", replacements(6)},
        {"above U+10FFFF", "\xF4\x90\x80\x80", replacements(4)},
        {"a sequence cut short at the end", "ok\xE2\x82", "ok" + kReplacement},
        {"a sequence cut short by ASCII", "\xF0\x9F\x90z", kReplacement + "z"},
        {"binary bytes in a comment", std::string("\x00\xfe\xca(\x01", 5),
         std::string(1, '\0').append(replacements(2)).append("(\x01")},
    };
    for (const Case& one : cases) {
        CAPTURE(one.what);
        CHECK_FALSE(isValidUtf8(one.input));
        const std::string valid = validUtf8(one.input);
        CHECK(isValidUtf8(valid));
        CHECK(valid == one.expected);
        std::string inPlace = one.input;
        CHECK(makeValidUtf8(inPlace));
        CHECK(inPlace == valid);
    }
}

TEST_CASE("long text: ASCII runs and the bad byte after them", "[utf8]") {
    std::string text(1000, 'x');
    CHECK(isValidUtf8(text));
    text[997] = '\xFE';
    CHECK_FALSE(isValidUtf8(text));
    CHECK(validUtf8(text) == std::string(997, 'x') + kReplacement + "xx");
}

TEST_CASE("a cut at a byte limit never splits a sequence", "[utf8]") {
    const std::string text =
        "ab\xE2\x82\xAC"
        "cd";  // "ab€cd"
    CHECK(utf8Prefix(text, 100) == text);
    CHECK(utf8Prefix(text, 5) == "ab\xE2\x82\xAC");
    CHECK(utf8Prefix(text, 4) == "ab");
    CHECK(utf8Prefix(text, 3) == "ab");
    CHECK(utf8Prefix(text, 2) == "ab");
    CHECK(utf8Prefix(text, 0).empty());
}
