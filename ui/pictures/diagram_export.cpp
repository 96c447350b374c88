#include "pictures/diagram_export.hpp"

#include <QDir>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QImageWriter>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>

namespace tcpscope::ui {

namespace {

constexpr double kHeadingHeight = 50;
constexpr double kPagePad = 12;
constexpr double kStackGap = 24;  // between diagrams stacked in one SVG or PNG
constexpr double kMaxPngPixels = 400e6;  // a bound on the image buffer (1.6 GB): refuse beyond

QFont headingFont(const QPainter& painter, int pixels, bool bold) {
    QFont font = painter.font();
    font.setPixelSize(pixels);
    font.setBold(bold);
    return font;
}

// The heading band and the diagram under it, at `origin`, in 1x coordinates.
void paintPage(QPainter& painter, const ExportPage& page, const QPointF& origin, const QPalette& palette) {
    const QSizeF size = exportPageSize(page);
    painter.save();
    painter.translate(origin);
    painter.fillRect(QRectF(QPointF(0, 0), size), palette.color(QPalette::Base));
    painter.setPen(palette.color(QPalette::Text));
    painter.setFont(headingFont(painter, 16, true));
    const QRectF titleRect(kPagePad, 6, size.width() - 2 * kPagePad, 22);
    painter.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetricsF(painter.font()).elidedText(page.title, Qt::ElideRight, titleRect.width()));
    painter.setFont(headingFont(painter, 12, false));
    const QRectF subtitleRect(kPagePad, 28, size.width() - 2 * kPagePad, 16);
    painter.drawText(subtitleRect, Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetricsF(painter.font()).elidedText(page.subtitle, Qt::ElideRight, subtitleRect.width()));
    painter.setPen(QPen(palette.color(QPalette::Mid), 1));
    painter.drawLine(QPointF(0, kHeadingHeight - 1), QPointF(size.width(), kHeadingHeight - 1));
    if (page.render) {
        page.render(painter, QRectF(QPointF(0, kHeadingHeight), page.size));
    }
    painter.restore();
}

QSizeF stackedSize(const std::vector<ExportPage>& pages) {
    double width = 0;
    double height = 0;
    for (const ExportPage& page : pages) {
        const QSizeF size = exportPageSize(page);
        width = std::max(width, size.width());
        height += size.height() + (height > 0 ? kStackGap : 0);
    }
    return {width, height};
}

void paintStacked(QPainter& painter, const std::vector<ExportPage>& pages, const QPalette& palette) {
    double y = 0;
    for (const ExportPage& page : pages) {
        paintPage(painter, page, QPointF(0, y), palette);
        y += exportPageSize(page).height() + kStackGap;
    }
}

// A diagram on paper: A4 landscape pages, a pixel of the views printed as a CSS pixel (1/96 inch), so that
// their smallest text (11 px) prints at 8.25 pt whatever the diagram's size. What does not fit one page
// continues on the next ones, left to right and then down, each tile overlapping the one before a little
// so that a label cut by a page edge is whole on one of them.
constexpr double kPdfMarginPt = 28;  // about 10 mm
constexpr double kPdfTileOverlapPx = 24;
constexpr double kPdfFooterPt = 9;

QPageLayout pdfPageLayout() {
    return {QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(0, 0, 0, 0)};
}

QSizeF pdfPageSizePt() {
    return pdfPageLayout().fullRect(QPageLayout::Point).size();
}

// The tiles of one diagram, in pixels of the views: each the width and height of a page's printable area.
struct PdfTiles {
    int columns = 1;
    int rows = 1;
    QSizeF tilePx;
    QSizeF stepPx;
};

PdfTiles pdfTiles(const QSizeF& pagePx) {
    PdfTiles tiles;
    const QSizeF printablePt = pdfPageSizePt() - QSizeF(2 * kPdfMarginPt, 2 * kPdfMarginPt);
    tiles.tilePx = printablePt / kPdfPointsPerPx;
    tiles.stepPx = tiles.tilePx - QSizeF(kPdfTileOverlapPx, kPdfTileOverlapPx);
    const auto count = [](double length, double tile, double step) {
        return length <= tile ? 1 : 1 + static_cast<int>(std::ceil((length - tile) / step - 1e-9));
    };
    tiles.columns = count(pagePx.width(), tiles.tilePx.width(), tiles.stepPx.width());
    tiles.rows = count(pagePx.height(), tiles.tilePx.height(), tiles.stepPx.height());
    return tiles;
}

// "Sequence diagram of ...: page 2 of 6 (row 1, column 2)" in the bottom margin of a diagram's later pages.
void paintPdfFooter(QPainter& painter, const ExportPage& page, const PdfTiles& tiles, int tile,
                    const QPalette& palette) {
    const QSizeF pagePt = pdfPageSizePt();
    QFont font = painter.font();
    font.setPixelSize(static_cast<int>(kPdfFooterPt));  // device units are points
    font.setBold(false);
    painter.setFont(font);
    painter.setPen(palette.color(QPalette::Text));
    const QString where =
        tiles.columns > 1
            ? QStringLiteral(" (row %1, column %2)").arg(tile / tiles.columns + 1).arg(tile % tiles.columns + 1)
            : QString();
    const QString label = QStringLiteral(": page %1 of %2").arg(tile + 1).arg(tiles.columns * tiles.rows) + where;
    const QRectF footer(kPdfMarginPt, pagePt.height() - kPdfMarginPt + 4, pagePt.width() - 2 * kPdfMarginPt,
                        kPdfMarginPt - 8);
    const QFontMetricsF metrics(font);
    painter.drawText(
        footer, Qt::AlignLeft | Qt::AlignVCenter,
        metrics.elidedText(page.title, Qt::ElideRight, footer.width() - metrics.horizontalAdvance(label)) + label);
}

QString writePdf(const std::vector<ExportPage>& pages, const QString& path, const QPalette& palette) {
    QPdfWriter writer(path);
    writer.setResolution(72);  // device units are points
    writer.setCreator(QStringLiteral("tcpscope"));
    writer.setTitle(pages.front().title);
    writer.setPageLayout(pdfPageLayout());
    QPainter painter;
    if (!painter.begin(&writer)) {
        return QStringLiteral("%1: cannot write the PDF").arg(path);
    }
    bool first = true;
    for (const ExportPage& page : pages) {
        const PdfTiles tiles = pdfTiles(exportPageSize(page));
        for (int tile = 0; tile < tiles.columns * tiles.rows; ++tile) {
            if (!first) {
                writer.newPage();
            }
            first = false;
            const QPointF offsetPx((tile % tiles.columns) * tiles.stepPx.width(),
                                   (tile / tiles.columns) * tiles.stepPx.height());
            painter.save();
            painter.translate(kPdfMarginPt, kPdfMarginPt);
            painter.scale(kPdfPointsPerPx, kPdfPointsPerPx);
            painter.setClipRect(QRectF(QPointF(0, 0), tiles.tilePx));
            paintPage(painter, page, -offsetPx, palette);
            painter.restore();
            if (tiles.columns * tiles.rows > 1) {
                paintPdfFooter(painter, page, tiles, tile, palette);
            }
        }
    }
    return painter.end() ? QString() : QStringLiteral("%1: cannot finish the PDF").arg(path);
}

QString writeSvg(const std::vector<ExportPage>& pages, const QString& path, const QPalette& palette) {
    const QSizeF size = stackedSize(pages);
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(QSize(static_cast<int>(std::ceil(size.width())), static_cast<int>(std::ceil(size.height()))));
    generator.setViewBox(QRectF(QPointF(0, 0), size));
    generator.setResolution(72);
    generator.setTitle(pages.front().title);
    generator.setDescription(pages.front().subtitle);
    QPainter painter;
    if (!painter.begin(&generator)) {
        return QStringLiteral("%1: cannot write the SVG").arg(path);
    }
    paintStacked(painter, pages, palette);
    return painter.end() ? QString() : QStringLiteral("%1: cannot finish the SVG").arg(path);
}

QString writePng(const std::vector<ExportPage>& pages, const QString& path, double scale, const QPalette& palette) {
    const QSizeF size = stackedSize(pages) * scale;
    const QSize pixels(static_cast<int>(std::ceil(size.width())), static_cast<int>(std::ceil(size.height())));
    if (pixels.isEmpty() || static_cast<double>(pixels.width()) * pixels.height() > kMaxPngPixels) {
        return QStringLiteral("%1: a %2 x %3 pixel image is too large; export a shorter time range or to SVG or PDF")
            .arg(path)
            .arg(pixels.width())
            .arg(pixels.height());
    }
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) {
        return QStringLiteral("%1: no memory for a %2 x %3 pixel image").arg(path).arg(pixels.width()).arg(pixels.height());
    }
    image.fill(palette.color(QPalette::Base));
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setRenderHint(QPainter::TextAntialiasing, true);
        painter.scale(scale, scale);  // the views draw in 1x coordinates; text and lines stay sharp
        paintStacked(painter, pages, palette);
    }
    QImageWriter writer(path, "png");
    if (!writer.write(image)) {
        return QStringLiteral("%1: %2").arg(path, writer.errorString());
    }
    return {};
}

}  // namespace

std::optional<ExportFormat> exportFormatOf(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg")) {
        return ExportFormat::Svg;
    }
    if (suffix == QLatin1String("pdf")) {
        return ExportFormat::Pdf;
    }
    if (suffix == QLatin1String("png")) {
        return ExportFormat::Png;
    }
    return std::nullopt;
}

QSizeF pdfPrintableSizePx() {
    return pdfTiles({1, 1}).tilePx;
}

void paintExportPage(QPainter& painter, const ExportPage& page, const QPalette& palette) {
    paintPage(painter, page, QPointF(0, 0), palette);
}

double exportHeadingHeight() {
    return kHeadingHeight;
}

QSizeF exportPageSize(const ExportPage& page) {
    // Whole pixels, so that a PNG at 2x is exactly twice the 1x one.
    return {std::ceil(page.size.width()), std::ceil(page.size.height() + kHeadingHeight)};
}

QString exportDiagrams(const std::vector<ExportPage>& pages, const QString& path, ExportFormat format, double scale,
                       const QPalette& palette) {
    if (pages.empty()) {
        return QStringLiteral("%1: nothing to export").arg(path);
    }
    if (!(scale > 0 && scale <= 8)) {
        return QStringLiteral("%1: the scale must be above 0 and at most 8").arg(path);
    }
    if (!QFileInfo(path).absoluteDir().exists()) {
        return QStringLiteral("%1: the directory %2 does not exist").arg(path, QFileInfo(path).absolutePath());
    }
    for (const ExportPage& page : pages) {
        if (page.size.isEmpty()) {
            return QStringLiteral("%1: the diagram \"%2\" is empty").arg(path, page.title);
        }
    }
    switch (format) {
        case ExportFormat::Pdf: return writePdf(pages, path, palette);
        case ExportFormat::Svg: return writeSvg(pages, path, palette);
        case ExportFormat::Png: return writePng(pages, path, scale, palette);
    }
    return QStringLiteral("%1: unknown format").arg(path);
}

QPalette documentPalette() {
    QPalette palette;
    const auto set = [&palette](QPalette::ColorRole role, const char* color) {
        palette.setColor(QPalette::All, role, QColor(QLatin1String(color)));
    };
    set(QPalette::Base, "#ffffff");
    set(QPalette::AlternateBase, "#f3f4f6");
    set(QPalette::Window, "#eef0f3");
    set(QPalette::WindowText, "#1a1a1a");
    set(QPalette::Text, "#1a1a1a");
    set(QPalette::Button, "#e6e9ee");
    set(QPalette::ButtonText, "#1a1a1a");
    set(QPalette::Mid, "#b0b4ba");
    set(QPalette::Highlight, "#2f6fd0");
    set(QPalette::HighlightedText, "#ffffff");
    set(QPalette::Link, "#2450b8");
    return palette;
}

}  // namespace tcpscope::ui
