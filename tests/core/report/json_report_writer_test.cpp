// The streaming JSON writer must print exactly what nlohmann's dump() prints for the same tree:
// the golden reports were made that way and their readers diff them.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include "report/json_report_writer.hpp"

using tcpscope::JsonStreamWriter;
using Tree = nlohmann::ordered_json;

namespace {

// Writes `tree` through the writer's scalar and container calls (not its tree overload).
void writeWalking(JsonStreamWriter& out, const Tree& tree) {
    switch (tree.type()) {
        case Tree::value_t::object:
            out.beginObject();
            for (const auto& [name, item] : tree.items()) {
                out.key(name);
                writeWalking(out, item);
            }
            out.endObject();
            break;
        case Tree::value_t::array:
            out.beginArray();
            for (const auto& item : tree) {
                writeWalking(out, item);
            }
            out.endArray();
            break;
        case Tree::value_t::string: out.value(tree.get<std::string>()); break;
        case Tree::value_t::boolean: out.value(tree.get<bool>()); break;
        case Tree::value_t::number_unsigned: out.value(tree.get<uint64_t>()); break;
        case Tree::value_t::number_integer: out.value(tree.get<int64_t>()); break;
        case Tree::value_t::number_float: out.value(tree.get<double>()); break;
        default: out.null(); break;
    }
}

// `indent` -1: the compact layout, as dump() with no indent.
std::string streamed(const Tree& tree, int indent, bool walk) {
    std::ostringstream text;
    {
        JsonStreamWriter out = indent < 0 ? JsonStreamWriter(text, JsonStreamWriter::Compact{})
                                          : JsonStreamWriter(text, static_cast<unsigned>(indent));
        if (walk) {
            writeWalking(out, tree);
        } else {
            out.value(tree);
        }
    }
    return text.str();
}

}  // namespace

TEST_CASE("streamed JSON is byte for byte nlohmann's dump", "[report][json]") {
    Tree tree = {{"schema", "tcpscope/1"},
                 {"empty_object", Tree::object()},
                 {"empty_array", Tree::array()},
                 {"text", "quote \" backslash \\ tab \t newline \n bell \x07 del \x7f"},
                 {"utf8", "caf\xc3\xa9 \xe2\x9c\x93"},
                 {"numbers", {0, -1, uint64_t{18446744073709551615ULL}, int64_t{-9223372036854775807LL}}},
                 {"doubles", {0.0, -0.0, 1.0, 0.1, 1e-7, 1.5e300, 1704067200.000123, 123456789012345678.0, 2.5e-5}},
                 {"nested", {{"a", {{"b", Tree::array({1, Tree::object(), Tree::array({Tree::array()})})}}}, {"z", nullptr}}},
                 {"flags", {true, false, nullptr}}};
    for (const int indent : {-1, 1, 2, 4}) {  // -1: compact, one line
        CAPTURE(indent);
        CHECK(streamed(tree, indent, true) == tree.dump(indent));
        CHECK(streamed(tree, indent, false) == tree.dump(indent));
    }
}

TEST_CASE("streamed JSON writes non-finite numbers as null and invalid UTF-8 as dump() with replacement does",
          "[report][json]") {
    const Tree tree = {std::nan(""), std::numeric_limits<double>::infinity()};
    CHECK(streamed(tree, 2, true) == tree.dump(2));
    const Tree bad = {"bad \xff byte", "cut \xe2\x82"};
    CHECK(streamed(bad, 2, true) == bad.dump(2, ' ', false, Tree::error_handler_t::replace));
    std::ostringstream text;
    {
        JsonStreamWriter out(text, 2);
        out.value(std::string_view("bad \xff byte"));  // a writer never throws on a string from an input
    }
    CHECK(text.str() == "\"bad \xef\xbf\xbd byte\"");
}

TEST_CASE("streamed JSON keeps a tree's indentation inside the stream", "[report][json]") {
    const nlohmann::json evidence = {{"instances", {{{"frames", {1, 2, 3}}, {"hold_ms", 40.123}}}}, {"stalls", 1}};
    const Tree whole = {{"findings", {{{"kind", "delayed_ack_stall"}, {"evidence", evidence}}}}};
    std::ostringstream text;
    {
        JsonStreamWriter out(text, 2);
        out.beginObject();
        out.key("findings");
        out.beginArray();
        out.beginObject();
        out.key("kind");
        out.value("delayed_ack_stall");
        out.key("evidence");
        out.value(evidence);
        out.endObject();
        out.endArray();
        out.endObject();
    }
    CHECK(text.str() == whole.dump(2));
}

TEST_CASE("streamed JSON escapes text of every length and writes documents larger than its buffer",
          "[report][json]") {
    // Plain text is checked eight bytes at a time and copied through a fixed buffer: an escape at
    // any position of any length, and a value longer than the buffer, must still come out as dump().
    Tree texts = Tree::array();
    for (size_t length = 1; length <= 40; ++length) {
        for (size_t position = 0; position < length; ++position) {
            for (const char special : {'"', '\\', '\n', '\x01', '\x1f'}) {
                std::string text(length, 'x');
                text[position] = special;
                texts.push_back(text);
            }
        }
        texts.push_back(std::string(length, ' '));
    }
    CHECK(streamed(texts, 2, true) == texts.dump(2));

    const Tree large = {{"long_text", std::string(300'000, 'a') + "\"end"}, {"numbers", Tree::array()}};
    Tree many = large;
    for (uint64_t number = 0; number < 100'000; ++number) {
        many["numbers"].push_back(number * 7919);
    }
    CHECK(streamed(many, 1, true) == many.dump(1));
    CHECK(streamed(many, 2, false) == many.dump(2));
}

TEST_CASE("streamed JSON writes every double as nlohmann's dump does", "[report][json]") {
    // Most doubles of a report are whole microseconds and are formatted without nlohmann's
    // Grisu2: the digits must still be the ones Grisu2 gives, for those and for every other value.
    Tree numbers = {0.0, -0.0, 1.0, -1.0, 0.1 + 0.2, 1e-7, -1e-7, 1e21, 1e15, 1e16, 9.999999e14, 123456789012345678.0,
                    9007199254740993.0, 4294967296.0, 4294967295.999999, 4294967295.9999995, 2147483648.000001,
                    1e-4, 0.0001, 0.00009999, 0.000100001, 1e-6, 0.5, 0.000123, 100.0, 1704067200.006179,
                    1704067200.0, -1704067200.000001, 41.998134, 0.097, 784.4, 1.5e300, 5e-324,
                    std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
                    std::numeric_limits<double>::epsilon()};
    std::mt19937_64 random(20261121);
    std::uniform_int_distribution<uint64_t> bits;
    for (int i = 0; i < 200'000; ++i) {
        // Decimals on the microsecond and millisecond grids, at every magnitude the fast path takes.
        const uint64_t units = bits(random) >> (bits(random) % 64);
        numbers.push_back(static_cast<double>(units % (uint64_t{1} << 53)) / 1e6);
        numbers.push_back(-static_cast<double>(units % 100'000'000'000ULL) / 1e3);
        numbers.push_back(std::round(static_cast<double>(units % 5'000'000'000ULL) * 1e3) / 1e6);
        // Epoch seconds with microseconds, as the report's times, and neighbouring doubles.
        const double epoch = static_cast<double>(1'600'000'000'000'000LL + static_cast<int64_t>(units % 200'000'000'000'000LL)) / 1e6;
        numbers.push_back(epoch);
        numbers.push_back(std::nextafter(epoch, 0.0));
        numbers.push_back(std::nextafter(epoch, 1e300));
        // Any bit pattern (non-finite ones are written as null by both).
        numbers.push_back(std::bit_cast<double>(bits(random)));
    }
    for (const int indent : {-1, 2}) {
        CAPTURE(indent);
        const bool same = streamed(numbers, indent, true) == numbers.dump(indent);
        CHECK(same);
        if (!same) {  // name the values that differ
            for (const Tree& number : numbers) {
                CAPTURE(number.get<double>());
                CHECK(streamed(number, indent, true) == number.dump(indent));
            }
        }
    }
}
