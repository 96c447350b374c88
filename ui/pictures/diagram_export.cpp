#include "pictures/diagram_export.hpp"

#include <QDir>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QImageWriter>
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

QString writePdf(const std::vector<ExportPage>& pages, const QString& path, const QPalette& palette) {
    QPdfWriter writer(path);
    writer.setResolution(72);  // one pixel of the views is one point
    writer.setCreator(QStringLiteral("tcpscope"));
    writer.setTitle(pages.front().title);
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setPageSize(QPageSize(exportPageSize(pages.front()), QPageSize::Point, QString(), QPageSize::ExactMatch));
    QPainter painter;
    if (!painter.begin(&writer)) {
        return QStringLiteral("%1: cannot write the PDF").arg(path);
    }
    for (size_t index = 0; index < pages.size(); ++index) {
        if (index > 0) {
            writer.setPageSize(
                QPageSize(exportPageSize(pages[index]), QPageSize::Point, QString(), QPageSize::ExactMatch));
            writer.newPage();
        }
        paintPage(painter, pages[index], QPointF(0, 0), palette);
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
