#include "sequence/sequence_painter.hpp"

#include <QFontMetricsF>
#include <QGuiApplication>
#include <QPainterPath>
#include <QPolygonF>
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "sequence/sequence_notes.hpp"

namespace tcpscope::ui {

namespace {

constexpr double kHeaderBoxHeight = 50;
constexpr double kSlantedArrowPx = 12;  // an arrow dropping more than this is drawn with its label along it
constexpr double kHeaderPad = 8;
constexpr double kTitleHeight = 26;
constexpr double kLegendHeight = 28;
constexpr int kLabelPixels = 12;
constexpr int kSmallPixels = 11;

QColor mix(const QColor& a, const QColor& b, double towardsB) {
    const double keep = 1.0 - towardsB;
    return QColor::fromRgbF(static_cast<float>(a.redF() * keep + b.redF() * towardsB),
                            static_cast<float>(a.greenF() * keep + b.greenF() * towardsB),
                            static_cast<float>(a.blueF() * keep + b.blueF() * towardsB));
}

QColor withAlpha(QColor color, int alpha) {
    color.setAlpha(alpha);
    return color;
}

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < 128;
}

// Colours of one paint, all derived from the palette.
struct Colors {
    explicit Colors(const QPalette& palette)
        : base(palette.color(QPalette::Base)),
          text(palette.color(QPalette::Text)),
          muted(mix(text, base, 0.45)),
          lifeline(mix(text, base, 0.62)),
          gutter(palette.color(QPalette::AlternateBase)),
          stall(sequenceStallColor(palette)),
          stallFill(withAlpha(stall, isDark(palette) ? 52 : 40)),
          highlight(palette.color(QPalette::Highlight)),
          syscall(palette.color(QPalette::Link)),
          read(isDark(palette) ? QColor(96, 200, 160) : QColor(0, 128, 96)),
          failed(isDark(palette) ? QColor(255, 110, 110) : QColor(200, 30, 30)),
          header(palette.color(QPalette::Button)),
          headerText(palette.color(QPalette::ButtonText)) {}
    QColor base, text, muted, lifeline, gutter, stall, stallFill, highlight, syscall, read, failed, header, headerText;
};

QFont fontOf(const QPainter& painter, int pixels, bool bold = false) {
    QFont font = painter.font();
    font.setPixelSize(pixels);
    font.setBold(bold);
    return font;
}

void drawArrowHead(QPainter& painter, const QPointF& from, const QPointF& to, const QColor& color, double size) {
    const QPointF direction = to - from;
    const double length = std::hypot(direction.x(), direction.y());
    if (length < 1) {
        return;
    }
    const QPointF unit = direction / length;
    const QPointF normal(-unit.y(), unit.x());
    const QPointF back = to - unit * size;
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawPolygon(QPolygonF({to, back + normal * (size * 0.45), back - normal * (size * 0.45)}));
    painter.setBrush(Qt::NoBrush);
}

void drawZigzag(QPainter& painter, double left, double right, double y, const QColor& color) {
    QPainterPath path(QPointF(left, y));
    const int teeth = static_cast<int>((right - left) / 6);
    for (int tooth = 1; tooth <= teeth; ++tooth) {
        path.lineTo(left + 6.0 * tooth, y + (tooth % 2 == 1 ? -3 : 3));
    }
    painter.setPen(QPen(color, 1.2));
    painter.drawPath(path);
}

void paintBreak(QPainter& painter, const SequenceDrawList::Break& cut, double left, double width, const Colors& colors) {
    const QRectF band(0, cut.top, width, cut.bottom - cut.top);
    painter.fillRect(band, colors.base);  // the lifelines stop at the cut
    drawZigzag(painter, left, width - 8, cut.top + 8, colors.muted);
    drawZigzag(painter, left, width - 8, cut.bottom - 8, colors.muted);
    painter.setFont(fontOf(painter, kSmallPixels, true));
    const QFontMetricsF metrics(painter.font());
    const QString label = QStringLiteral("\u22EF %1 \u22EF").arg(cut.label);
    const double labelWidth = metrics.horizontalAdvance(label) + 16;
    const QRectF labelRect((width - labelWidth) / 2, band.center().y() - 9, labelWidth, 18);
    painter.fillRect(labelRect, colors.base);
    painter.setPen(colors.muted);
    painter.drawText(labelRect, Qt::AlignCenter, label);
}

// The time column: seconds since the capture started, then the frame number at the right.
void paintArrowTime(QPainter& painter, const SequenceDrawList& list, const SequenceDrawList::Arrow& arrow,
                    const Colors& colors) {
    painter.setFont(fontOf(painter, kSmallPixels));
    painter.setPen(colors.muted);
    const QRectF timeRect(0, arrow.timeY - 9, list.timeGutter - list.frameColumn - 8, 18);
    painter.drawText(timeRect, Qt::AlignRight | Qt::AlignVCenter, arrow.time);
    const QRectF frameRect(list.timeGutter - list.frameColumn - 4, arrow.timeY - 9, list.frameColumn, 18);
    painter.drawText(frameRect, Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("#%1").arg(arrow.frame));
}

void paintArrow(QPainter& painter, const SequenceDrawList::Arrow& arrow, bool selected, const Colors& colors) {
    const QColor color = selected        ? colors.highlight
                         : arrow.inStall ? colors.stall
                         : arrow.pureAck ? colors.muted
                                         : colors.text;
    const double penWidth = selected ? 3.0 : arrow.inStall ? 2.4 : arrow.pureAck ? 1.1 : 1.8;
    painter.setPen(QPen(color, penWidth, Qt::SolidLine, Qt::RoundCap));
    painter.drawLine(arrow.start, arrow.end);
    drawArrowHead(painter, arrow.start, arrow.end, color, arrow.pureAck && !arrow.inStall ? 8 : 10);
    painter.setBrush(color);
    painter.setPen(Qt::NoPen);
    painter.drawEllipse(arrow.start, 2.6, 2.6);
    painter.setBrush(Qt::NoBrush);

    // The label sits above the arrow, centred in its column; a stall's cause follows it.
    const double left = arrow.labelLeft;
    const double right = arrow.labelRight;
    const QFont labelFont = fontOf(painter, kLabelPixels);
    const QFont noteFont = fontOf(painter, kLabelPixels, true);
    const QFontMetricsF labelMetrics(labelFont);
    const QFontMetricsF noteMetrics(noteFont);
    // Full label if it fits, else the short one (flags, ack or seq and length), and the note
    // without its parenthesis (the bracket's text has the numbers), else cut.
    const double columnWidth = right - left;
    QString note = arrow.note.isEmpty() ? QString() : QStringLiteral("  \u2190 %1").arg(arrow.note);
    const double shortWidth =
        labelMetrics.horizontalAdvance(arrow.shortLabel.isEmpty() ? arrow.label : arrow.shortLabel);
    if (noteMetrics.horizontalAdvance(note) + shortWidth > columnWidth && note.contains(QStringLiteral(" ("))) {
        note.truncate(note.indexOf(QStringLiteral(" (")));
    }
    const double noteWidth = noteMetrics.horizontalAdvance(note);
    const double room = std::max(20.0, columnWidth - noteWidth);
    const QString& wanted = labelMetrics.horizontalAdvance(arrow.label) <= room || arrow.shortLabel.isEmpty()
                                ? arrow.label
                                : arrow.shortLabel;
    const QString label = labelMetrics.elidedText(wanted, Qt::ElideRight, room);
    const double total = labelMetrics.horizontalAdvance(label) + noteWidth;
    double x = (left + right - total) / 2;
    // Under the line when the arrow before in this column has its label just above (capture points).
    const double lift = arrow.labelBelow ? -(labelMetrics.ascent() + 4) : 5;
    double baseline = arrow.start.y() - lift;
    painter.save();
    // An arrow slanted by its one-way delay (capture points) carries its label along its line.
    const QPointF run = arrow.end - arrow.start;
    if (std::abs(run.y()) > kSlantedArrowPx && std::abs(run.x()) > 1) {
        // Near the end the time column names (its row): rows are a label's height apart there,
        // while two packets sent at once leave their sender on top of each other.
        double middleX = (left + right) / 2;
        const double room = std::max(0.0, (right - left - total) / 2 - 4);
        const bool rowAtEnd =
            std::abs(arrow.timeY - arrow.end.y()) < 0.5 && std::abs(arrow.timeY - arrow.start.y()) > 0.5;
        const bool rowAtStart = std::abs(arrow.timeY - arrow.start.y()) < 0.5 && !rowAtEnd;
        if (rowAtEnd || rowAtStart) {
            const double towardsX = rowAtEnd ? arrow.end.x() : arrow.start.x();
            middleX += towardsX > middleX ? room : -room;
        }
        const double middleY = arrow.start.y() + (middleX - arrow.start.x()) / run.x() * run.y();
        painter.translate(middleX, middleY);
        painter.rotate(std::atan2(run.x() < 0 ? -run.y() : run.y(), std::abs(run.x())) * 180 / M_PI);
        x = -total / 2;
        baseline = -lift;
    }
    painter.setFont(labelFont);
    painter.setPen(arrow.pureAck && !arrow.inStall && !selected ? colors.muted : colors.text);
    painter.drawText(QPointF(x, baseline), label);
    if (!note.isEmpty()) {
        painter.setFont(noteFont);
        painter.setPen(colors.stall);
        painter.drawText(QPointF(x + labelMetrics.horizontalAdvance(label), baseline), note);
    }
    painter.restore();
}

void paintBracket(QPainter& painter, const SequenceDrawList::Bracket& bracket, const Colors& colors) {
    // The bar with serifs pointing into the connection's column, like a printed brace.
    const double serif = 8 * bracket.direction;
    painter.setPen(QPen(colors.stall, 3, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
    painter.drawPolyline(QPolygonF({QPointF(bracket.x + serif, bracket.top), QPointF(bracket.x, bracket.top),
                                    QPointF(bracket.x, bracket.bottom), QPointF(bracket.x + serif, bracket.bottom)}));
    // On the other side, the receiver sat on its ACK for the same time.
    if (bracket.causeY > bracket.top) {
        painter.setPen(QPen(colors.stall, 2, Qt::DotLine));
        painter.drawLine(QPointF(bracket.receiverX, bracket.top + 8), QPointF(bracket.receiverX, bracket.causeY));
    }
}

void paintBracketLabel(QPainter& painter, const SequenceDrawList::Bracket& bracket, const Colors& colors) {
    // The cause in bold, then what the system call trace proves, then why: each line only if the
    // box still fits its rectangle (the rest stays in the tooltip).
    struct Block {
        QString text;
        QFont font;
        QColor color;
        QRectF size;
    };
    const double innerWidth = bracket.labelRect.width() - 16;
    const int flags = Qt::AlignHCenter | Qt::TextWordWrap;
    std::vector<Block> blocks;
    double height = 10;
    auto add = [&](const QString& text, const QFont& font, const QColor& color, bool required) {
        if (text.isEmpty()) {
            return;
        }
        const QRectF size = QFontMetricsF(font).boundingRect(QRectF(0, 0, innerWidth, 1000), flags, text);
        const double extra = size.height() + (blocks.empty() ? 0 : 3);
        if (!required && height + extra > bracket.labelRect.height()) {
            return;
        }
        blocks.push_back({text, font, color, size});
        height += extra;
    };
    add(bracket.text, fontOf(painter, kLabelPixels + 1, true), colors.text, true);
    add(bracket.proof, fontOf(painter, kSmallPixels, true), colors.syscall, false);
    add(bracket.explanation, fontOf(painter, kSmallPixels), colors.muted, false);
    double widest = 0;
    for (const Block& block : blocks) {
        widest = std::max(widest, block.size.width());
    }
    const double width = std::min(bracket.labelRect.width(), widest + 20);
    const QRectF box(bracket.labelRect.center().x() - width / 2, bracket.labelRect.center().y() - height / 2, width,
                     height);
    painter.setPen(QPen(colors.stall, 1.3));
    painter.setBrush(withAlpha(colors.base, 238));
    painter.drawRoundedRect(box, 4, 4);
    painter.setBrush(Qt::NoBrush);
    double y = box.top() + 5;
    for (const Block& block : blocks) {
        painter.setFont(block.font);
        painter.setPen(block.color);
        painter.drawText(QRectF(box.left() + 8, y, box.width() - 16, block.size.height()), flags, block.text);
        y += block.size.height() + 3;
    }
}

void paintGap(QPainter& painter, const SequenceDrawList::Gap& gap, double timeGutter, const Colors& colors) {
    const double x = timeGutter - 30;
    painter.setPen(QPen(colors.muted, 1));
    painter.drawLine(QPointF(x, gap.top), QPointF(x, gap.bottom));
    painter.drawLine(QPointF(x - 3, gap.top), QPointF(x + 3, gap.top));
    painter.drawLine(QPointF(x - 3, gap.bottom), QPointF(x + 3, gap.bottom));
    painter.setFont(fontOf(painter, kSmallPixels, true));
    const QRectF labelRect(0, (gap.top + gap.bottom) / 2 - 9, x - 4, 18);
    painter.drawText(labelRect, Qt::AlignRight | Qt::AlignVCenter, gap.label);
}

QColor syscallColor(EventKind kind, const Colors& colors) {
    switch (kind) {
        case EventKind::Write: return colors.syscall;
        case EventKind::Read: return colors.read;
        case EventKind::Wait: return colors.muted;
        case EventKind::Failed: return colors.failed;
        case EventKind::Other: break;
    }
    return mix(colors.syscall, colors.muted, 0.5);
}

void paintSyscall(QPainter& painter, const SequenceDrawList::Syscall& syscall, const Colors& colors) {
    const QColor color = syscallColor(syscall.kind, colors);
    const QRectF bar(syscall.x - 3, syscall.y, 6, syscall.height);
    if (syscall.kind == EventKind::Wait) {
        // Blocked: an outline over the time it waited.
        painter.setPen(QPen(color, 1));
        painter.setBrush(withAlpha(color, 50));
        painter.drawRect(bar);
        painter.setBrush(Qt::NoBrush);
    } else {
        painter.fillRect(bar, withAlpha(color, 190));
    }
    // A write whose bytes left later: a dotted line from the call down to the segment carrying them.
    if (syscall.segmentY > syscall.y + 4) {
        const double lineX = syscall.x + 5 * syscall.direction;
        painter.setPen(QPen(withAlpha(colors.syscall, 200), 1.2, Qt::DotLine));
        painter.drawLine(QPointF(lineX, syscall.y + 1), QPointF(lineX, syscall.segmentY - 1));
        painter.drawLine(QPointF(lineX, syscall.segmentY - 1), QPointF(syscall.x, syscall.segmentY - 1));
    }
    painter.setFont(fontOf(painter, kSmallPixels));
    const QFontMetricsF metrics(painter.font());
    const double width = metrics.horizontalAdvance(syscall.label) + 8;
    const double x = syscall.direction > 0 ? syscall.x + 8 : syscall.x - 8 - width;
    const QRectF labelRect(x, syscall.labelY - 7, width, 14);
    if (syscall.labelY > syscall.y + 1) {  // pushed down by the call before: a leader to its time
        painter.setPen(QPen(withAlpha(color, 140), 1));
        const double edge = syscall.direction > 0 ? labelRect.left() : labelRect.right();
        painter.drawLine(QPointF(syscall.x + 3 * syscall.direction, syscall.y), QPointF(edge, syscall.labelY));
    }
    painter.fillRect(labelRect, withAlpha(colors.base, 220));
    painter.setPen(color);
    painter.drawText(labelRect, Qt::AlignCenter, syscall.label);
}

// One entry of the legend: its mark, drawn `markPx` wide from x and centred on y, and its text.
struct LegendEntry {
    double markPx = 26;
    std::function<void(QPainter&, double x, double y)> mark;
    QString text;
    bool newRow = false;  // the system calls' entries start a row of their own
};

std::vector<LegendEntry> legendEntries(const SequencePaintOptions& options) {
    const Colors colors(options.palette);
    const auto arrow = [](QColor color, double penWidth) {
        return [color, penWidth](QPainter& painter, double x, double y) {
            painter.setPen(QPen(color, penWidth));
            painter.drawLine(QPointF(x, y), QPointF(x + 26, y));
            drawArrowHead(painter, QPointF(x, y), QPointF(x + 26, y), color, 8);
        };
    };
    std::vector<LegendEntry> entries = {
        {26, arrow(colors.text, 1.8), QStringLiteral("data")},
        {26, arrow(colors.muted, 1.1), QStringLiteral("ACK only")},
        {26, arrow(colors.stall, 2.4), QStringLiteral("packets of a stall")},
        {26,
         [colors](QPainter& painter, double x, double y) {
             painter.fillRect(QRectF(x, y - 7, 26, 14), colors.stallFill);
             painter.setPen(QPen(colors.stall, 3));
             painter.drawLine(QPointF(x + 2, y - 7), QPointF(x + 2, y + 7));
         },
         QStringLiteral("time lost waiting, with its cause")},
        {26, [colors](QPainter& painter, double x, double y) { drawZigzag(painter, x, x + 26, y, colors.muted); },
         QStringLiteral("silence cut short (its length is written on it)")},
    };
    if (!options.syscallLegend) {
        return entries;
    }
    // The marks of system calls beside a lifeline.
    for (const auto& [kind, label] : {std::pair{EventKind::Write, QStringLiteral("write (strace)")},
                                      std::pair{EventKind::Read, QStringLiteral("read")},
                                      std::pair{EventKind::Failed, QStringLiteral("failed call")}}) {
        const QColor color = syscallColor(kind, colors);
        entries.push_back(
            {6, [color](QPainter& painter, double x, double y) { painter.fillRect(QRectF(x, y - 7, 6, 14), color); },
             label, kind == EventKind::Write});
    }
    entries.push_back({6,
                       [colors](QPainter& painter, double x, double y) {
                           painter.setPen(QPen(colors.muted, 1));
                           painter.setBrush(withAlpha(colors.muted, 50));
                           painter.drawRect(QRectF(x, y - 7, 6, 14));
                           painter.setBrush(Qt::NoBrush);
                       },
                       QStringLiteral("waiting (poll, epoll_wait), as long as it waited")});
    entries.push_back({10,
                       [colors](QPainter& painter, double x, double y) {
                           painter.setPen(QPen(colors.syscall, 1.2, Qt::DotLine));
                           painter.drawLine(QPointF(x + 3, y - 7), QPointF(x + 3, y + 7));
                           painter.drawLine(QPointF(x + 3, y + 7), QPointF(x + 10, y + 7));
                       },
                       QStringLiteral("a write's bytes until the segment that carried them")});
    return entries;
}

QFont legendFont() {
    QFont font;
    font.setPixelSize(kSmallPixels);
    return font;
}

// Where each entry of the legend goes, `width` wide: rows of kLegendHeight, an entry that would pass
// the right edge starting the next row (a narrow picture, as the PDF report's, wraps its legend).
std::vector<QPointF> legendPlaces(const std::vector<LegendEntry>& entries, double width, int& rows) {
    const QFontMetricsF metrics(legendFont());
    std::vector<QPointF> places;
    double x = 12;
    rows = 1;
    for (const LegendEntry& entry : entries) {
        const double entryPx = entry.markPx + 6 + metrics.horizontalAdvance(entry.text);
        if (x > 12 && (entry.newRow || x + entryPx > width - 12)) {
            x = 12;
            ++rows;
        }
        places.emplace_back(x, (rows - 1) * kLegendHeight + kLegendHeight / 2);
        x += entryPx + 22;
    }
    return places;
}

}  // namespace

SequencePaintOptions withLayoutLegend(const SequenceLayout& layout, SequencePaintOptions options) {
    options.syscallLegend = options.legend && !layout.syscalls().empty();
    return options;
}

QColor sequenceStallColor(const QPalette& palette) {
    return isDark(palette) ? QColor(255, 176, 64) : QColor(196, 96, 0);
}

double sequenceHeaderHeight(const SequencePaintOptions& options) {
    return (options.title.isEmpty() ? 0 : kTitleHeight) + kHeaderBoxHeight + 2 * kHeaderPad;
}

double sequenceLegendHeight(const SequencePaintOptions& options, double width) {
    if (!options.legend) {
        return 0;
    }
    int rows = 1;
    legendPlaces(legendEntries(options), width, rows);
    return kLegendHeight * rows;
}

void paintSequenceContent(QPainter& painter, const SequenceLayout& layout, const SequenceDrawList& list,
                          const SequencePaintOptions& options) {
    const Colors colors(options.palette);
    const double width = layout.scale().width;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(QRectF(0, list.top, width, list.bottom - list.top), colors.base);
    painter.fillRect(QRectF(0, list.top, list.timeGutter - 2, list.bottom - list.top), colors.gutter);

    for (const auto& bracket : list.brackets) {
        painter.fillRect(bracket.band, colors.stallFill);
    }
    painter.setPen(QPen(colors.lifeline, 1.5));
    for (const auto& lifeline : list.lifelines) {
        painter.drawLine(QPointF(lifeline.x, list.top), QPointF(lifeline.x, list.bottom));
    }
    for (const auto& cut : list.breaks) {
        paintBreak(painter, cut, list.timeGutter, width, colors);
    }
    for (const auto& gap : list.gaps) {
        paintGap(painter, gap, list.timeGutter, colors);
    }
    for (const auto& bracket : list.brackets) {
        paintBracket(painter, bracket, colors);
    }
    for (const auto& arrow : list.arrows) {
        const bool selected = arrow.arrow == options.selectedArrow;
        if (selected) {
            painter.fillRect(QRectF(0, arrow.start.y() - SequenceLayout::kLabelHeight, width,
                                    SequenceLayout::kLabelHeight + layout.scale().slopePx + 5),
                             withAlpha(colors.highlight, 48));
        }
        paintArrow(painter, arrow, selected, colors);
        paintArrowTime(painter, list, arrow, colors);
    }
    for (const auto& syscall : list.syscalls) {
        paintSyscall(painter, syscall, colors);
    }
    // Last, so that no arrow crosses the words that explain the wait.
    for (const auto& bracket : list.brackets) {
        paintBracketLabel(painter, bracket, colors);
    }
    if (options.notes) {
        paintSequenceNotes(painter, layout, list, *options.notes, options.palette);
    }
    painter.restore();
}

void paintSequenceHeader(QPainter& painter, const SequenceDrawList& list, double width,
                         const SequencePaintOptions& options) {
    const Colors colors(options.palette);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    const double height = sequenceHeaderHeight(options);
    painter.fillRect(QRectF(0, 0, width, height), colors.base);
    double top = kHeaderPad;
    if (!options.title.isEmpty()) {
        painter.setFont(fontOf(painter, kLabelPixels + 2, true));
        painter.setPen(colors.text);
        painter.drawText(QRectF(8, 2, width - 16, kTitleHeight), Qt::AlignLeft | Qt::AlignVCenter, options.title);
        top += kTitleHeight;
    }
    double spacing = width;
    for (size_t i = 1; i < list.lifelines.size(); ++i) {
        spacing = std::min(spacing, list.lifelines[i].x - list.lifelines[i - 1].x);
    }
    const double boxWidth = std::min(230.0, spacing - 24);
    for (const auto& lifeline : list.lifelines) {
        const QRectF box(lifeline.x - boxWidth / 2, top, boxWidth, kHeaderBoxHeight);
        painter.setPen(QPen(colors.lifeline, 1.2));
        painter.setBrush(colors.header);
        painter.drawRoundedRect(box, 5, 5);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(colors.headerText);
        painter.setFont(fontOf(painter, kLabelPixels + 1, true));
        painter.drawText(QRectF(box.left(), box.top() + 3, box.width(), 17), Qt::AlignCenter, lifeline.role);
        painter.setFont(fontOf(painter, kSmallPixels));
        painter.drawText(QRectF(box.left() + 4, box.top() + 19, box.width() - 8, box.height() - 21),
                         Qt::AlignHCenter | Qt::AlignTop, lifeline.endpoints);
    }
    painter.setFont(fontOf(painter, kSmallPixels));
    painter.setPen(colors.muted);
    painter.drawText(QRectF(0, height - 18, list.timeGutter - list.frameColumn - 8, 16), Qt::AlignRight | Qt::AlignBottom,
                     std::any_of(list.arrows.begin(), list.arrows.end(),
                                 [](const auto& arrow) { return arrow.time.contains(QLatin1Char(':')); })
                         ? QStringLiteral("time")
                         : QStringLiteral("time (s)"));
    painter.drawText(QRectF(list.timeGutter - list.frameColumn - 4, height - 18, list.frameColumn + 4, 16), Qt::AlignLeft | Qt::AlignBottom,
                     QStringLiteral("frame"));
    painter.restore();
}

void paintSequenceLegend(QPainter& painter, double width, const SequencePaintOptions& options) {
    if (!options.legend) {
        return;
    }
    const Colors colors(options.palette);
    const std::vector<LegendEntry> entries = legendEntries(options);
    int rows = 1;
    const std::vector<QPointF> places = legendPlaces(entries, width, rows);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillRect(QRectF(0, 0, width, kLegendHeight * rows), colors.base);
    painter.setFont(legendFont());
    const QFontMetricsF metrics(painter.font());
    for (size_t index = 0; index < entries.size(); ++index) {
        const QPointF place = places[index];
        entries[index].mark(painter, place.x(), place.y());
        painter.setPen(colors.text);
        painter.drawText(QPointF(place.x() + entries[index].markPx + 6, place.y() + 4), entries[index].text);
    }
    painter.restore();
}

QSizeF sequenceRenderSize(const SequenceLayout& layout, SequenceRowRange rows, const SequencePaintOptions& givenOptions) {
    const SequencePaintOptions options = withLayoutLegend(layout, givenOptions);
    const QRectF content = layout.contentRect(rows);
    return {layout.scale().width,
            sequenceHeaderHeight(options) + content.height() + sequenceLegendHeight(options, layout.scale().width)};
}

void renderSequence(QPainter& painter, const QRectF& target, const SequenceLayout& layout, SequenceRowRange rows,
                    const SequencePaintOptions& givenOptions) {
    const SequencePaintOptions options = withLayoutLegend(layout, givenOptions);
    const QSizeF size = sequenceRenderSize(layout, rows, options);
    if (size.isEmpty() || target.isEmpty()) {
        return;
    }
    const double scale = std::min(target.width() / size.width(), target.height() / size.height());
    const QRectF content = layout.contentRect(rows);
    SequenceDrawList list = layout.prepare(content);
    // Only the rows asked for: the tip of the arrow above the range must not peek in.
    std::erase_if(list.arrows, [&rows](const SequenceDrawList::Arrow& arrow) {
        return arrow.arrow < rows.first || arrow.arrow >= rows.end;
    });
    const double headerHeight = sequenceHeaderHeight(options);

    painter.save();
    painter.translate(target.left() + (target.width() - size.width() * scale) / 2, target.top());
    painter.scale(scale, scale);
    painter.fillRect(QRectF(QPointF(0, 0), size), options.palette.color(QPalette::Base));
    paintSequenceHeader(painter, list, size.width(), options);
    painter.save();
    painter.translate(0, headerHeight - content.top());
    painter.setClipRect(content, Qt::IntersectClip);  // within a PDF page's tile
    paintSequenceContent(painter, layout, list, options);
    painter.restore();
    painter.translate(0, headerHeight + content.height());
    paintSequenceLegend(painter, size.width(), options);
    painter.restore();
}

}  // namespace tcpscope::ui
