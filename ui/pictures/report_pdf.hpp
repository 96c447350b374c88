#pragma once
#include <QImage>
#include <QString>
#include <string>
#include <utility>
#include <vector>

namespace tcpscope::ui {

/// The text width of the report's A4 pages (166 mm) at 96 px per inch: the width of its pictures.
inline constexpr double kReportPrintWidthPx = 620;

/// Lays out `html` (the report's print HTML, whose pictures are named by file) with QTextDocument
/// and writes it to `path` as a PDF of A4 pages. `images` are the pictures by the names the HTML uses.
/// Returns an empty string, or one line that says why the file could not be written.
QString writeReportPdf(const QString& path, const QString& title, const std::string& html,
                       const std::vector<std::pair<QString, QImage>>& images);

}  // namespace tcpscope::ui
