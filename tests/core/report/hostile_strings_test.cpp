// Every writer takes any string from an input without failing and writes valid UTF-8 that its
// format reads back as text: JSON (the streamed report and nlohmann trees), Markdown, HTML and
// Mermaid. The strings are what captures and strace logs can hold: bytes that are not UTF-8, NULs
// and control characters, overlong forms, encoded surrogates, and each format's metacharacters.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "report/json_report_writer.hpp"
#include "report/mermaid_sequence.hpp"
#include "report/report_blocks.hpp"
#include "text/json_text.hpp"
#include "text/valid_utf8.hpp"

using namespace tcpscope;

namespace {

const std::string kReplacement = "\xEF\xBF\xBD";

// One of each kind of trouble.
std::vector<std::string> hostileStrings() {
    return {
        std::string("binary ") + '\0' + "\xfe\xca(\x01 comment",
        "overlong slash \xc0\xaf, overlong NUL \xc0\x80, overlong \xe0\x80\xaf",
        "lone surrogate \xed\xa0\x80, pair \xed\xa0\xbd\xed\xb2\xa9, past U+10FFFF \xf4\x90\x80\x80",
        "quotes \" and \\ and \\\" and \\u0000",
        "<script>alert(1)</script> & <b>bold</b> <http://example.org>",
        "[link](http://example.org) ![image](http://example.org/x.png) `code` *em* _em_ # heading | cell",
        "mermaid #35; ; %% comment --> end\nNote over A: injected",
        "escape \x1b[31mred\x1b[0m bell \x07 delete \x7f tab\tcarriage\rreturn\nnew line",
        "cut short \xe2\x82",
        "valid: Z\xc3\xbcrich \xe2\x86\x92 \xe6\x9d\xb1\xe4\xba\xac \xf0\x9f\x90\x9b",
    };
}

// '|' characters of a Markdown line that are not escaped: the cell borders.
size_t cellBorders(const std::string& line) {
    size_t borders = 0;
    for (size_t at = 0; at < line.size(); ++at) {
        borders += line[at] == '|' && (at == 0 || line[at - 1] != '\\') ? 1 : 0;
    }
    return borders;
}

// Whether some "](" (a link or an image) is not escaped.
bool hasLink(const std::string& markdown) {
    for (size_t at = markdown.find("]("); at != std::string::npos; at = markdown.find("](", at + 1)) {
        if (at == 0 || markdown[at - 1] != '\\') {
            return true;
        }
    }
    return false;
}

bool hasControlCharacter(const std::string& text, bool allowLineBreaks) {
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if ((byte < 0x20 || byte == 0x7f) && !(allowLineBreaks && (c == '\n' || c == '\t'))) {
            return true;
        }
    }
    return false;
}

}  // namespace

TEST_CASE("the streamed JSON writer writes any string as valid JSON, in either layout", "[report][utf8]") {
    for (const bool compact : {false, true}) {
        CAPTURE(compact);
        std::ostringstream out;
        {
            JsonStreamWriter writer =
                compact ? JsonStreamWriter(out, JsonStreamWriter::Compact{}) : JsonStreamWriter(out, 2);
            writer.beginObject();
            writer.key("values");
            writer.beginArray();
            for (const std::string& text : hostileStrings()) {
                writer.value(text);
            }
            writer.endArray();
            // Member names from inputs go through a tree (evidence, notes): escaped as values are.
            nlohmann::ordered_json tree = nlohmann::ordered_json::object();
            for (const std::string& text : hostileStrings()) {
                tree[text] = text;
            }
            writer.field("tree", tree);
            writer.endObject();
        }
        const std::string text = out.str();
        CHECK(isValidUtf8(text));
        const nlohmann::json parsed = nlohmann::json::parse(text);  // strict: throws on anything invalid
        REQUIRE(parsed["values"].size() == hostileStrings().size());
        for (size_t index = 0; index < hostileStrings().size(); ++index) {
            CHECK(parsed["values"][index].get<std::string>() == validUtf8(hostileStrings()[index]));
        }
        CHECK(parsed["tree"].size() == hostileStrings().size());
        CHECK(parsed["values"][0].get<std::string>() ==
              std::string("binary \x00", 8) + kReplacement + kReplacement + "(\x01 comment");
        CHECK(text.find("\\u0000") != std::string::npos);
    }
}

TEST_CASE("a JSON tree is written as valid JSON whatever its strings hold", "[report][utf8]") {
    nlohmann::ordered_json tree = {{"comments", hostileStrings()}};
    for (const int indent : {-1, 2}) {
        const std::string text = jsonText(tree, indent);
        CHECK(isValidUtf8(text));
        const nlohmann::json parsed = nlohmann::json::parse(text);
        CHECK(parsed["comments"][8].get<std::string>() == "cut short " + kReplacement);
    }
}

TEST_CASE("Markdown keeps a string from an input on its line and out of its markup", "[report][utf8]") {
    std::vector<ReportBlock> blocks;
    for (const std::string& text : hostileStrings()) {
        ReportBlock heading;
        heading.kind = ReportBlock::Kind::Heading;
        heading.text = text;
        ReportBlock paragraph;
        paragraph.label = "Evidence.";
        paragraph.text = text;
        ReportBlock list;
        list.kind = ReportBlock::Kind::List;
        list.rows = {{text, "second item"}};
        ReportBlock table;
        table.kind = ReportBlock::Kind::Table;
        table.rows = {{"file", "comment"}, {text, text}};
        blocks.insert(blocks.end(), {heading, paragraph, list, table});
    }
    std::ostringstream out;
    writeMarkdownBlocks(out, blocks);
    const std::string markdown = out.str();
    CHECK(isValidUtf8(markdown));
    CHECK_FALSE(hasControlCharacter(markdown, true));
    for (size_t at = markdown.find('<'); at != std::string::npos; at = markdown.find('<', at + 1)) {
        CHECK((at > 0 && markdown[at - 1] == '\\'));  // no HTML tag, no autolink: every '<' of an input is escaped
    }
    CHECK_FALSE(hasLink(markdown));  // no link or image made of an input
    CHECK(markdown.find("\\<script>") != std::string::npos);
    CHECK(markdown.find("\\[link\\](http://example.org)") != std::string::npos);
    CHECK(markdown.find("\\`code\\`") != std::string::npos);
    // Each block is its own lines: the injected "Note over A" line break became a space.
    CHECK(markdown.find("\nNote over A") == std::string::npos);
    std::istringstream lines(markdown);
    std::string line;
    size_t tableRows = 0;
    while (std::getline(lines, line)) {
        if (line.rfind("| ", 0) == 0) {
            ++tableRows;
            CHECK(cellBorders(line) == 3);  // two cells: a '|' of an input is escaped
        }
    }
    CHECK(tableRows == 2 * hostileStrings().size());
}

TEST_CASE("HTML writes a string from an input as text, never as markup", "[report][utf8]") {
    std::vector<ReportBlock> blocks;
    for (const std::string& text : hostileStrings()) {
        ReportBlock paragraph;
        paragraph.text = text;
        ReportBlock table;
        table.kind = ReportBlock::Kind::Table;
        table.rows = {{"comment"}, {text}};
        ReportBlock code;
        code.kind = ReportBlock::Kind::Code;
        code.file = "mermaid";
        code.text = text + "\n";
        blocks.insert(blocks.end(), {paragraph, table, code});
    }
    std::ostringstream out;
    writeHtmlBlocks(out, hostileStrings()[4], blocks, {});
    const std::string html = out.str();
    CHECK(isValidUtf8(html));
    CHECK_FALSE(hasControlCharacter(html, true));
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("<b>bold") == std::string::npos);
    CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold") != std::string::npos);
    CHECK(html.find("quotes &quot; and") != std::string::npos);
}

TEST_CASE("a Mermaid label holds a string from an input on one line, with no statement of its own", "[report][utf8]") {
    for (const std::string& text : hostileStrings()) {
        CAPTURE(text);
        const std::string label = mermaidEscape(text);
        CHECK(isValidUtf8(label));
        CHECK_FALSE(hasControlCharacter(label, false));
        // Every ';' and '#' left is part of an entity code.
        for (size_t at = label.find_first_of("#;"); at != std::string::npos; at = label.find_first_of("#;", at + 1)) {
            if (label[at] == '#') {
                const size_t end = label.find(';', at);
                REQUIRE(end != std::string::npos);
                CHECK((label.substr(at, end - at + 1) == "#35;" || label.substr(at, end - at + 1) == "#59;" ||
                       label.substr(at, end - at + 1) == "#60;"));
                at = end;
            } else {
                FAIL("a ';' outside an entity code: " << label);
            }
        }
        CHECK(label.find('<') == std::string::npos);
    }
}
