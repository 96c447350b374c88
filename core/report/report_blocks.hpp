#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace tcpscope {

/// One piece of a written report (the incident report): written out as Markdown or HTML.
struct ReportBlock {
    enum class Kind : uint8_t { Heading, Paragraph, List, Table, Image, Code };
    Kind kind = Kind::Paragraph;
    int level = 2;                               ///< heading level
    std::string label;                           ///< paragraph: a bold lead ("Impact."); heading: its anchor id
    std::string text;                            ///< heading, paragraph, code; image: its title
    std::vector<std::vector<std::string>> rows;  ///< table: the header first; list: one row of items
    std::string file;                            ///< image: its file; code: its language ("mermaid")
    std::string vectorFile;                      ///< image: the same as SVG, or empty
    std::string dataUri;                         ///< image: its bytes as a data: URI (HTML), or empty
};

/// A heading of `level`, with `anchor` as its id where given.
ReportBlock headingBlock(int level, std::string text, std::string anchor = {});
/// A paragraph led by `label` in bold ("Impact."), or none.
ReportBlock paragraphBlock(std::string label, std::string text);
/// A bulleted list.
ReportBlock listBlock(std::vector<std::string> items);

/// How the HTML is meant to be read.
struct HtmlReportOptions {
    /// For QTextDocument (the PDF): images by file name and as wide as `printWidthPx`, tables with
    /// plain borders, no Mermaid text. Otherwise one self-contained page: images as data: URIs.
    bool forPrint = false;
    double printWidthPx = 680;
};

/// The blocks as Markdown (images by file name, code fenced).
void writeMarkdownBlocks(std::ostream& out, const std::vector<ReportBlock>& blocks);
/// The blocks as an HTML page titled `title`, which loads no file but itself unless options.forPrint.
void writeHtmlBlocks(std::ostream& out, const std::string& title, const std::vector<ReportBlock>& blocks,
                     const HtmlReportOptions& options);

}  // namespace tcpscope
