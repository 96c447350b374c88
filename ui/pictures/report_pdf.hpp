#pragma once
#include <QString>
#include <string>
#include <utility>
#include <vector>

#include "pictures/diagram_export.hpp"

namespace tcpscope::ui {

/// The text width of the report's A4 pages (166 mm) at 96 px per inch: the width the report's
/// pictures are laid out at for the PDF, where a pixel prints as 0.75 pt (their 11 px text at 8.25 pt).
inline constexpr double kReportPrintWidthPx = 620;

/// The tallest picture the PDF draws whole (a page's text is 956 px high at 96 per inch): one taller
/// is cut into bands of this height on the pages that follow.
inline constexpr double kReportPrintPagePx = 900;

/// Lays out `html` (the report's print HTML, whose pictures are named by file) with QTextDocument
/// and writes it to `path` as a PDF of A4 pages. `pictures` are drawn in place of the HTML's images
/// of the same names, as vectors at their own size (1 px = 1/96 inch): each picture's parts one under
/// the other, a part taller than kReportPrintPagePx in bands on the pages that follow. Returns an empty
/// string, or one line that says why the file could not be written.
QString writeReportPdf(const QString& path, const QString& title, const std::string& html,
                       const std::vector<std::pair<QString, std::vector<ExportPage>>>& pictures);

}  // namespace tcpscope::ui
