#include "panels/hex_highlight.hpp"

#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>

#include "dissect/hex_dump.hpp"

namespace tcpscope::ui {

namespace {
constexpr auto kBytesPerLine = static_cast<int>(dissect::kHexDumpBytesPerLine);
}  // namespace

std::vector<std::pair<int, int>> highlightedColumns(const QString& line, uint32_t lineOffset, ByteRange range) {
    const uint64_t rangeEnd = uint64_t{range.offset} + range.length;
    const uint64_t lineEnd = uint64_t{lineOffset} + kBytesPerLine;
    const uint64_t first = std::max<uint64_t>(range.offset, lineOffset);
    const uint64_t last = std::min(rangeEnd, lineEnd);  // one past
    // "0000  45 00 ...  E..": the offset's digits, two spaces, sixteen "xx " cells, two spaces, the text.
    const qsizetype hexStart = line.indexOf(QStringLiteral("  ")) + 2;
    if (range.length == 0 || first >= last || hexStart < 2) {
        return {};
    }
    const auto from = static_cast<int>(first - lineOffset);
    const auto count = static_cast<int>(last - first);
    const int asciiStart = static_cast<int>(hexStart) + 3 * kBytesPerLine + 2;
    std::vector<std::pair<int, int>> spans{{static_cast<int>(hexStart) + 3 * from, 3 * count - 1}};
    if (asciiStart + from + count <= line.size()) {
        spans.emplace_back(asciiStart + from, count);
    }
    return spans;
}

void HexHighlightDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
    const QVariant lineOffset = index.data(kLineOffsetRole);
    if (!lineOffset.isValid() || range_.length == 0) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem item = option;
    initStyleOption(&item, index);
    const QString text = item.text;
    const std::vector<std::pair<int, int>> spans = highlightedColumns(text, lineOffset.toUInt(), range_);
    QStyledItemDelegate::paint(painter, option, index);
    if (spans.empty()) {
        return;
    }
    // The dump is in a fixed-width font: a character's cell is its index times one advance.
    const QStyle* style = item.widget != nullptr ? item.widget->style() : QApplication::style();
    const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &item, item.widget);
    const QFontMetricsF metrics(item.font);
    const double advance = metrics.horizontalAdvance(QLatin1Char('0'));
    const double margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, item.widget) + 1;
    QColor mark = item.palette.color(QPalette::Highlight);
    mark.setAlpha(110);
    painter->save();
    painter->setClipRect(option.rect);
    for (const auto& [first, count] : spans) {
        const QRectF cell(textRect.left() + margin + first * advance, textRect.top(), count * advance, textRect.height());
        painter->fillRect(cell, mark);
    }
    painter->restore();
}

}  // namespace tcpscope::ui
