// A record's line is JSON that any reader parses back to the values written, whatever the text holds.
#include "records/record_line.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "text/valid_utf8.hpp"

namespace {

using nlohmann::json;
using namespace tcpscope;

}  // namespace

TEST_CASE("a record line parses back to what was written", "[records][line]") {
    const RecordSource source{"web-1", "0123456789abcdef", "0.1.0+abc", TimeOrigin{}};
    RecordLine line(source, RecordType::Finding, -5, "1:abc=");
    const std::string awkward = std::string("quote \" backslash \\ tab \t newline \n bell \x07 end");
    line.field("awkward", awkward);
    line.field("utf8", "Zürich → 東京");
    line.field("broken_utf8", std::string("a\xff"
                                          "b"));
    line.field("big", std::numeric_limits<uint64_t>::max());
    line.field("negative", int64_t{-42});
    line.field("fraction", 0.1);
    line.field("infinite", std::numeric_limits<double>::infinity());
    line.nullField("nothing");
    const std::vector<std::string> names{"a", "b\"c"};
    const std::vector<double> values{1.5, 2};
    const std::vector<uint32_t> frames{1, 4294967295u};
    line.field("names", names);
    line.field("values", values);
    line.field("frames", frames);
    const std::string text = std::move(line).take();
    CHECK(text.find('\n') == std::string::npos);
    const json record = json::parse(text);
    CHECK(record["record"] == "finding");
    CHECK(record["schema"] == "tcpscope-record/1");
    CHECK(record["host"] == "web-1");
    CHECK(record["ts_ns"] == -5);
    CHECK(record["community_id"] == "1:abc=");
    CHECK(record["awkward"] == awkward);
    CHECK(record["utf8"] == "Zürich → 東京");
    CHECK(record["broken_utf8"] ==
          "a\xEF\xBF\xBD"
          "b");  // U+FFFD in place of the bad byte
    CHECK(record["big"].get<uint64_t>() == std::numeric_limits<uint64_t>::max());
    CHECK(record["negative"] == -42);
    CHECK(record["fraction"].get<double>() == 0.1);
    CHECK(record["infinite"].is_null());
    CHECK(record["nothing"].is_null());
    CHECK(record["names"] == json::array({"a", "b\"c"}));
    CHECK(record["values"] == json::array({1.5, 2.0}));
    CHECK(record["frames"] == json::array({1, 4294967295u}));
}

TEST_CASE("a record line is valid JSON and UTF-8 whatever a string from an input holds", "[records][line][utf8]") {
    const std::vector<std::string> hostile = {
        std::string("binary ") + '\0' + "\xfe\xca(\x01 comment",
        "overlong \xc0\xaf \xe0\x80\xaf, surrogate \xed\xa0\x80, past U+10FFFF \xf4\x90\x80\x80, cut \xe2\x82",
        "quote \" backslash \\ <script>alert(1)</script> \x1b[31m\x7f",
    };
    const RecordSource source{"host\xff", "0123456789abcdef", "0.1.0", TimeOrigin{}};
    RecordLine line(source, RecordType::Flow, 0, "1:\xc0\xaf");
    for (size_t index = 0; index < hostile.size(); ++index) {
        line.field("text_" + std::to_string(index), hostile[index]);
    }
    line.field("texts", hostile);
    const std::string text = std::move(line).take();
    CHECK(text.find('\n') == std::string::npos);
    CHECK(tcpscope::isValidUtf8(text));
    const json record = json::parse(text);  // strict about UTF-8 and escapes
    CHECK(record["host"] == "host\xef\xbf\xbd");
    CHECK(record["text_0"] == std::string("binary ") + '\0' + "\xef\xbf\xbd\xef\xbf\xbd(\x01 comment");
    CHECK(record["texts"].size() == hostile.size());
    CHECK(record["text_2"] == hostile[2]);
}
