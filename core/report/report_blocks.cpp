#include "report/report_blocks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "text/display_text.hpp"

namespace tcpscope {

ReportBlock headingBlock(int level, std::string text, std::string anchor) {
    ReportBlock block;
    block.kind = ReportBlock::Kind::Heading;
    block.level = level;
    block.text = std::move(text);
    block.label = std::move(anchor);
    return block;
}

ReportBlock paragraphBlock(std::string label, std::string text) {
    ReportBlock block;
    block.kind = ReportBlock::Kind::Paragraph;
    block.label = std::move(label);
    block.text = std::move(text);
    return block;
}

ReportBlock listBlock(std::vector<std::string> items) {
    ReportBlock block;
    block.kind = ReportBlock::Kind::List;
    block.rows.push_back(std::move(items));
    return block;
}

namespace {

// Text in Markdown: what a string from an input could turn into markup (raw HTML and autolinks
// after '<', links and images in brackets, code spans, emphasis, an escape of its own) is
// backslash-escaped, and it stays on its line. The report's own words use none of these.
std::string markdownText(const std::string& text) {
    std::string escaped;
    for (const char c : displayText(text, LineBreaks::Spaces)) {
        switch (c) {
            case '\\':
            case '`':
            case '*':
            case '[':
            case ']':
            case '<': escaped += '\\'; break;
            default: break;
        }
        escaped += c;
    }
    return escaped;
}

std::string markdownCell(const std::string& text) {
    std::string cell;
    for (const char c : markdownText(text)) {
        if (c == '|') {
            cell += "\\|";
        } else {
            cell += c;
        }
    }
    return cell;
}

// Text in HTML: valid UTF-8, no control character, the markup characters as entities.
std::string htmlEscape(const std::string& text, LineBreaks breaks = LineBreaks::Spaces) {
    std::string escaped;
    for (const char c : displayText(text, breaks)) {
        switch (c) {
            case '&': escaped += "&amp;"; break;
            case '<': escaped += "&lt;"; break;
            case '>': escaped += "&gt;"; break;
            case '"': escaped += "&quot;"; break;
            default: escaped += c;
        }
    }
    return escaped;
}

void writeMarkdownTable(std::ostream& out, const ReportBlock& block) {
    for (size_t row = 0; row < block.rows.size(); ++row) {
        out << '|';
        for (const std::string& cell : block.rows[row]) {
            out << ' ' << markdownCell(cell) << " |";
        }
        out << '\n';
        if (row == 0) {
            out << '|';
            for (size_t column = 0; column < block.rows[row].size(); ++column) {
                out << "---|";
            }
            out << '\n';
        }
    }
    out << '\n';
}

// A cell of one or two words: an endpoint, a number, a time, a duration, a short name. QTextDocument
// breaks a word that does not fit its column anywhere, "127.0.0.1:494" over "46"; on paper such a
// cell keeps its line, and the columns of longer text wrap instead.
bool keptWhole(const std::string& cell) {
    return std::count(cell.begin(), cell.end(), ' ') <= 1;
}

// `escaped` with each number tied to its unit ("12.310&nbsp;ms"): a cell that wraps does not leave a
// unit on the next line.
std::string numbersWithUnits(const std::string& escaped) {
    static const std::array<std::string_view, 11> kUnits = {"ms", "s",  "us", "µs",  "ns", "B",
                                                            "KB", "MB", "GB", "ppm", "%"};
    std::string tied;
    for (size_t at = 0; at < escaped.size(); ++at) {
        const bool afterDigit = at > 0 && std::isdigit(static_cast<unsigned char>(escaped[at - 1])) != 0;
        if (escaped[at] == ' ' && afterDigit) {
            const std::string_view rest = std::string_view(escaped).substr(at + 1);
            const bool unit = std::any_of(kUnits.begin(), kUnits.end(), [&rest](std::string_view name) {
                return rest.substr(0, name.size()) == name &&
                       (rest.size() == name.size() ||
                        std::string_view(" ,;)/").find(rest[name.size()]) != std::string_view::npos);
            });
            if (unit) {
                tied += "&nbsp;";
                continue;
            }
        }
        tied += escaped[at];
    }
    return tied;
}

void writeHtmlTable(std::ostream& out, const ReportBlock& block, const HtmlReportOptions& options) {
    out << (options.forPrint ? "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n" : "<table>\n");
    for (size_t row = 0; row < block.rows.size(); ++row) {
        out << "<tr>";
        for (const std::string& cell : block.rows[row]) {
            const char* tag = row == 0 ? "th" : "td";
            out << '<' << tag << (options.forPrint && keptWhole(cell) ? " style=\"white-space:nowrap\">" : ">")
                << (options.forPrint ? numbersWithUnits(htmlEscape(cell)) : htmlEscape(cell)) << "</" << tag << '>';
        }
        out << "</tr>\n";
    }
    out << "</table>\n";
}

void writeHtmlImage(std::ostream& out, const ReportBlock& block, const HtmlReportOptions& options) {
    if (options.forPrint) {
        out << fmt::format("<p><img src=\"{}\" width=\"{:.0f}\" alt=\"{}\"></p>\n", htmlEscape(block.file),
                           options.printWidthPx, htmlEscape(block.text));
    } else if (!block.dataUri.empty()) {
        // The page loads no file but itself: the picture is in it.
        out << "<p><img src=\"" << block.dataUri << "\" alt=\"" << htmlEscape(block.text) << "\"></p>\n";
    } else {
        out << "<p><em>" << htmlEscape(block.text) << ": no picture.</em></p>\n";
    }
}

}  // namespace

void writeMarkdownBlocks(std::ostream& out, const std::vector<ReportBlock>& blocks) {
    for (const ReportBlock& block : blocks) {
        switch (block.kind) {
            case ReportBlock::Kind::Heading:
                out << std::string(static_cast<size_t>(block.level), '#') << ' ' << markdownText(block.text) << "\n\n";
                break;
            case ReportBlock::Kind::Paragraph:
                out << (block.label.empty() ? "" : "**" + markdownText(block.label) + "** ") << markdownText(block.text)
                    << "\n\n";
                break;
            case ReportBlock::Kind::List:
                for (const std::string& item : block.rows.empty() ? std::vector<std::string>() : block.rows.front()) {
                    out << "- " << markdownText(item) << '\n';
                }
                out << '\n';
                break;
            case ReportBlock::Kind::Table: writeMarkdownTable(out, block); break;
            case ReportBlock::Kind::Image:
                out << "![" << markdownCell(block.text) << "](" << block.file << ")\n";
                if (!block.vectorFile.empty()) {
                    out << "\n[" << block.vectorFile << "](" << block.vectorFile << ") (vector)\n";
                }
                out << '\n';
                break;
            case ReportBlock::Kind::Code:
                // The code's own writer (Mermaid) keeps each input string on its line: no line can close the fence.
                out << "```" << block.file << '\n' << displayText(block.text, LineBreaks::Kept) << "```\n\n";
                break;
        }
    }
}

void writeHtmlBlocks(std::ostream& out, const std::string& title, const std::vector<ReportBlock>& blocks,
                     const HtmlReportOptions& options) {
    out << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << htmlEscape(title) << "</title>\n";
    if (options.forPrint) {
        out << "<style>body{font-family:sans-serif;font-size:9pt;}h1{font-size:16pt;}h2{font-size:13pt;}"
               "table{font-size:8.5pt;}th{background-color:#e5e7eb;}</style></head><body>\n";
    } else {
        out << "<style>body{font-family:sans-serif;max-width:1320px;margin:2em auto;line-height:1.4;}"
               "table{border-collapse:collapse;}td,th{border:1px solid #bbb;padding:3px 8px;text-align:left;"
               "vertical-align:top;}th{background:#f3f4f6;}img{max-width:100%;border:1px solid #ddd;}"
               "pre{background:#f3f4f6;padding:8px;overflow:auto;}details{margin:0.5em 0 1.5em 0;}"
               "</style></head><body>\n";
    }
    for (const ReportBlock& block : blocks) {
        switch (block.kind) {
            case ReportBlock::Kind::Heading:
                out << fmt::format("<h{0}{2}>{1}</h{0}>\n", block.level, htmlEscape(block.text),
                                   block.label.empty() ? "" : fmt::format(" id=\"{}\"", htmlEscape(block.label)));
                break;
            case ReportBlock::Kind::Paragraph:
                out << "<p>" << (block.label.empty() ? "" : "<b>" + htmlEscape(block.label) + "</b> ")
                    << htmlEscape(block.text) << "</p>\n";
                break;
            case ReportBlock::Kind::List:
                out << "<ul>\n";
                for (const std::string& item : block.rows.empty() ? std::vector<std::string>() : block.rows.front()) {
                    out << "<li>" << htmlEscape(item) << "</li>\n";
                }
                out << "</ul>\n";
                break;
            case ReportBlock::Kind::Table: writeHtmlTable(out, block, options); break;
            case ReportBlock::Kind::Image: writeHtmlImage(out, block, options); break;
            case ReportBlock::Kind::Code:
                if (options.forPrint) {
                    break;  // the Mermaid text is for report.md and report.html; the picture says it on paper
                }
                out << "<details><summary>" << htmlEscape(block.file) << " text</summary><pre class=\""
                    << htmlEscape(block.file) << "\">" << htmlEscape(block.text, LineBreaks::Kept)
                    << "</pre></details>\n";
                break;
        }
    }
    out << "</body></html>\n";
}

}  // namespace tcpscope
