#pragma once
#include <QPainter>
#include <QPalette>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <functional>
#include <optional>
#include <vector>

namespace tcpscope::ui {

/// The file types a diagram is exported to.
enum class ExportFormat : uint8_t { Svg, Pdf, Png };

/// The format named by `path`'s suffix (.svg, .pdf, .png, any case), or nullopt.
std::optional<ExportFormat> exportFormatOf(const QString& path);

/// One diagram of an export: a heading and the view's own render function (the one that paints
/// the screen), called with a target of `size` in the painter's 1x coordinates.
struct ExportPage {
    QString title;     ///< "Sequence diagram of flows #0 and #1 (client, proxy, server)"
    QString subtitle;  ///< capture name and time range
    QSizeF size;       ///< the diagram's natural size in pixels at 1x
    std::function<void(QPainter&, const QRectF&)> render;
};

/// Paints `page` with its heading at the painter's origin, exportPageSize(page) in its 1x coordinates.
void paintExportPage(QPainter& painter, const ExportPage& page, const QPalette& palette);

/// Height of the heading drawn above each diagram.
double exportHeadingHeight();
/// A page's size with its heading.
QSizeF exportPageSize(const ExportPage& page);

/// Points per pixel of the views in a PDF: a pixel printed as a CSS pixel (1/96 inch), so that their
/// smallest text (11 px) is 8.25 pt on paper.
inline constexpr double kPdfPointsPerPx = 0.75;

/// The printable area of a PDF export's A4 landscape page, in pixels of the views: a diagram no wider
/// than this prints in one column of pages.
QSizeF pdfPrintableSizePx();

/// Writes `pages` to `path`: a PDF puts each diagram on A4 landscape pages (vector, kPdfPointsPerPx),
/// as many as its size needs, a diagram larger than one page continuing on the next ones with its
/// title and part in the bottom margin; an SVG or a PNG stacks them top to bottom. A PNG is rendered at `scale` (2:
/// twice the width and height). Returns an empty string, or one line that says why the file could not be written.
QString exportDiagrams(const std::vector<ExportPage>& pages, const QString& path, ExportFormat format,
                       double scale = 1.0, const QPalette& palette = QPalette());

/// The light palette of printed documents, whatever the screen's theme.
QPalette documentPalette();

}  // namespace tcpscope::ui
