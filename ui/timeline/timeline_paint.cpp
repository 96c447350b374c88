#include "timeline/timeline_paint.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <QPolygonF>
#include <QTextOption>
#include <QVector>
#include <algorithm>
#include <cmath>
#include <map>

namespace tcpscope::ui {

namespace {

QColor withAlpha(QColor color, int alpha) {
    color.setAlpha(alpha);
    return color;
}

QColor pick(bool dark, const char* onLight, const char* onDark) {
    return {dark ? onDark : onLight};
}

QRectF toQt(const LayoutRect& rect) {
    return {rect.x, rect.y, rect.w, rect.h};
}

// Rectangles of one colour, filled in one call: a frame has thousands of marks but few colours.
class RectBatches {
public:
    void add(const QColor& color, const QRectF& rect) { batches_[color.rgba()].append(rect); }
    void fill(QPainter& painter) {
        painter.setPen(Qt::NoPen);
        for (const auto& [rgba, rects] : batches_) {
            painter.setBrush(QColor::fromRgba(rgba));
            painter.drawRects(rects);
        }
        batches_.clear();
    }

private:
    std::map<QRgb, QVector<QRectF>> batches_;
};

QColor boxColor(const LayoutBox& box, const TimelineColors& colors) {
    switch (box.role) {
        case BoxRole::RulerBackground: return colors.rulerBackground;
        case BoxRole::GutterBackground: return colors.base;
        case BoxRole::LaneStripe: return colors.stripe;
        case BoxRole::LaneSelected: return colors.selectedLane;
        case BoxRole::GroupHeader: return colors.groupHeader;
        case BoxRole::OutsideCapture: return colors.outsideCapture;
        case BoxRole::LifeBar: return colors.lifeBar;
        case BoxRole::ResetEnd: return colors.reset;
        case BoxRole::ExtraEvent: return colors.eventColor(box.style);
        case BoxRole::LegendBackground: return colors.rulerBackground;
        case BoxRole::LegendSwatch: return box.causeSwatch ? colors.stall(box.cause) : colors.mark(box.style);
        case BoxRole::BarSwatch: return colors.bar(static_cast<BarRole>(box.style));
    }
    return colors.base;
}

QColor lineColor(LineRole role, const TimelineColors& colors) {
    // Grid lines are faint; ticks and separators take the ruler's text colour.
    if (role == LineRole::Cursor) {
        return colors.selection;
    }
    if (role == LineRole::Capacity) {
        return colors.capacity;
    }
    return role == LineRole::GridLine ? colors.grid : colors.tick;
}

void paintBoxes(QPainter& painter, const std::vector<LayoutBox>& boxes, const TimelineColors& colors) {
    painter.setPen(Qt::NoPen);
    for (const LayoutBox& box : boxes) {
        painter.fillRect(toQt(box.rect), boxColor(box, colors));
    }
}

// The lines of `lines` (all, or only the population rows' limits, or all but those).
enum class LineSet : uint8_t { All, Limits, AllButLimits };

void paintLines(QPainter& painter, const std::vector<LayoutLine>& lines, const TimelineColors& colors,
                LineSet set = LineSet::All) {
    for (const LayoutLine& line : lines) {
        if ((set == LineSet::Limits && line.role != LineRole::Capacity) ||
            (set == LineSet::AllButLimits && line.role == LineRole::Capacity)) {
            continue;
        }
        QPen pen(lineColor(line.role, colors), line.role == LineRole::Cursor ? 2 : 1);
        pen.setStyle(line.role == LineRole::Capacity ? Qt::DashLine : Qt::SolidLine);
        painter.setPen(pen);
        painter.drawLine(QLineF(line.x1, line.y1, line.x2, line.y2));
    }
}

void paintTexts(QPainter& painter, const std::vector<LayoutText>& texts, const TimelineColors& colors,
                const QFont& font) {
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF metrics(font, painter.device());
    const QFontMetricsF boldMetrics(bold, painter.device());
    for (const LayoutText& text : texts) {
        const bool isBold = text.role == TextRole::GroupLabel;
        painter.setFont(isBold ? bold : font);
        QColor color = colors.text;
        switch (text.role) {
            case TextRole::RulerAbsolute:
            case TextRole::RulerRelative:
            case TextRole::LegendLabel: color = colors.rulerText; break;
            case TextRole::RulerCaption:
            case TextRole::LaneDetail:
            case TextRole::Notice: color = colors.mutedText; break;
            default: break;
        }
        painter.setPen(color);
        const QString content = QString::fromStdString(text.text);
        const QString elided = (isBold ? boldMetrics : metrics).elidedText(content, Qt::ElideRight, text.rect.w + 1);
        const Qt::Alignment alignment = Qt::AlignVCenter | (text.alignRight ? Qt::AlignRight : Qt::AlignLeft);
        painter.drawText(toQt(text.rect).adjusted(0, 0, 2, 0), elided, QTextOption(alignment));
    }
    painter.setFont(font);
}

// Density strips and capture-wide counts: one fill per colour and opacity.
void paintBars(QPainter& painter, const TimelineFrame& frame, const TimelineColors& colors) {
    RectBatches batches;
    for (const LayoutBar& bar : frame.bars) {
        batches.add(withAlpha(colors.bar(bar.role), bar.level), toQt(bar.rect));
    }
    batches.fill(painter);
}

void paintSpans(QPainter& painter, const TimelineFrame& frame, const TimelineColors& colors) {
    RectBatches fills;
    RectBatches edges;
    for (const LayoutSpan& span : frame.spans) {
        const QRectF rect = toQt(span.rect);
        if (span.instant) {
            continue;  // paintInstantTicks(), over the packets
        }
        // A translucent fill and a solid top edge: the packets at the stall's ends stay visible.
        fills.add(colors.stallFill(span.cause), rect);
        edges.add(colors.stall(span.cause), QRectF(rect.left(), rect.top(), rect.width(), 2));
    }
    fills.fill(painter);
    edges.fill(painter);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(colors.selection, 1.5));
    for (const LayoutSpan& span : frame.spans) {
        if (span.selected) {
            painter.drawRect(toQt(span.rect).adjusted(-1, -1, 1, 1));
        }
    }
}

// A finding that cost no time: a tick down the lane under a small flag, in the cause's colour,
// drawn over the packets (a port reuse sits on the SYN that reused the port).
void paintInstantTicks(QPainter& painter, const TimelineFrame& frame, const TimelineColors& colors) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (const LayoutSpan& span : frame.spans) {
        if (!span.instant) {
            continue;
        }
        const QRectF rect = toQt(span.rect);
        const double x = std::clamp(frame.axis.toX(span.startNs), rect.left(), rect.right());
        const QColor color = colors.stall(span.cause);
        painter.fillRect(QRectF(x - 1, rect.top(), 2, rect.height()), color);
        painter.setPen(Qt::NoPen);
        painter.setBrush(color);
        painter.drawPolygon(QPolygonF({QPointF(x - 4, rect.top()), QPointF(x + 4, rect.top()), QPointF(x, rect.top() + 6)}));
    }
    painter.restore();
}

void paintMarks(QPainter& painter, const TimelineFrame& frame, const TimelineColors& colors) {
    RectBatches batches;
    for (const LayoutMark& mark : frame.marks) {
        const bool toServer = (mark.style & markstyle::kFromServer) == 0;
        QColor color = colors.mark(mark.style);
        if (mark.source == MarkSource::Event) {
            // An event: its duration as a bar, or a tick for an instant.
            // An event: its duration as a bar, or a tick for an instant; waits (the process
            // blocked) lighter than the calls that moved bytes.
            const double width = std::max(mark.x2 - mark.x, 1.5);
            const QColor eventColor = colors.eventColor(mark.style);
            const bool waitOnly = mark.style == eventStyle(EventKind::Wait);
            batches.add(mark.count > 1 || waitOnly ? withAlpha(eventColor, 150) : eventColor,
                        QRectF(mark.x, mark.y, width, mark.h));
            continue;
        }
        const bool flagged = (mark.style & markstyle::kFlagged) != 0;
        // Data reaches across the band; a pure ACK only the half next to the life bar.
        const bool data =
            (mark.style & (markstyle::kPayload | markstyle::kSyn | markstyle::kFin | markstyle::kReset)) != 0;
        const double height = data || flagged ? mark.h : mark.h * 0.6;
        const double top = toServer ? mark.y + mark.h - height : mark.y;
        if (mark.count > 1) {
            // Folded: a band whose opacity grows with the number of packets in it.
            const int alpha = std::min(255, 150 + static_cast<int>(25 * std::log2(static_cast<double>(mark.count))));
            batches.add(withAlpha(color, alpha), QRectF(mark.x - 1, top, std::max(mark.x2 - mark.x, 0.0) + 2, height));
        } else if (flagged) {
            // Retransmissions, zero windows and the like stand out: wider and beyond the band.
            batches.add(color, QRectF(mark.x - 1.5, mark.y - 2, 3, mark.h + 4));
        } else {
            batches.add(color, QRectF(mark.x - 1, top, 2, height));
        }
    }
    batches.fill(painter);
}

}  // namespace

TimelineColors TimelineColors::fromPalette(const QPalette& palette) {
    TimelineColors colors;
    colors.base = palette.color(QPalette::Base);
    colors.dark = colors.base.lightness() < 128;
    const bool dark = colors.dark;
    colors.text = palette.color(QPalette::Text);
    colors.mutedText = palette.color(QPalette::PlaceholderText);
    if (std::abs(colors.mutedText.lightness() - colors.base.lightness()) < 60) {
        colors.mutedText = withAlpha(colors.text, 160);  // some styles give a placeholder that barely shows
    }
    colors.stripe = palette.color(QPalette::AlternateBase);
    if (colors.stripe == colors.base) {
        colors.stripe = withAlpha(colors.text, 12);
    }
    colors.selectedLane = withAlpha(palette.color(QPalette::Highlight), 55);
    colors.groupHeader = palette.color(QPalette::Button);
    colors.outsideCapture = withAlpha(colors.text, 22);
    colors.rulerBackground = palette.color(QPalette::Window);
    colors.rulerText = palette.color(QPalette::WindowText);
    colors.grid = withAlpha(colors.text, 28);
    colors.tick = withAlpha(colors.rulerText, 110);
    colors.lifeBar = withAlpha(colors.text, 90);
    colors.selection = palette.color(QPalette::Highlight);

    colors.toServer = pick(dark, "#2f6fd0", "#6ea8ff");
    colors.toClient = pick(dark, "#168a68", "#4cc9a0");
    colors.retransmission = pick(dark, "#d62828", "#ff6b6b");
    colors.zeroWindow = pick(dark, "#8e44ad", "#c58af0");
    colors.anomaly = pick(dark, "#b86e00", "#f2b233");
    colors.control = withAlpha(colors.text, 200);
    colors.reset = colors.retransmission;
    colors.event = pick(dark, "#5a6fd6", "#8fa0ff");
    colors.eventRead = pick(dark, "#0b7a5e", "#63d9b2");
    colors.eventWait = withAlpha(colors.text, 120);
    colors.eventFailed = colors.retransmission;

    colors.stalls[static_cast<size_t>(StallGroup::NagleDelayedAck)] = pick(dark, "#f08a24", "#ffa94d");
    colors.stalls[static_cast<size_t>(StallGroup::RetransmissionTimeout)] = pick(dark, "#e03131", "#ff8787");
    colors.stalls[static_cast<size_t>(StallGroup::ZeroWindow)] = pick(dark, "#9c36b5", "#da77f2");
    colors.stalls[static_cast<size_t>(StallGroup::PortReuse)] = pick(dark, "#c2255c", "#f783ac");
    colors.stalls[static_cast<size_t>(StallGroup::SynBacklog)] = pick(dark, "#0c8599", "#3bc9db");
    colors.stalls[static_cast<size_t>(StallGroup::PortExhaustion)] = pick(dark, "#a0740b", "#fcc419");
    colors.stalls[static_cast<size_t>(StallGroup::TimeWait)] = pick(dark, "#5c940d", "#a9e34b");
    colors.stalls[static_cast<size_t>(StallGroup::Other)] = pick(dark, "#868e96", "#adb5bd");

    // The population view: a state keeps the colour of the finding it leads to (TIME_WAIT churn,
    // a SYN backlog), open connections the colour of their packets; stalls of any cause, violet.
    colors.bars[static_cast<size_t>(BarRole::SynWait)] = colors.stall(StallGroup::SynBacklog);
    colors.bars[static_cast<size_t>(BarRole::Open)] = colors.toServer;
    colors.bars[static_cast<size_t>(BarRole::Stalled)] = pick(dark, "#6741d9", "#9775fa");
    colors.bars[static_cast<size_t>(BarRole::TimeWait)] = colors.stall(StallGroup::TimeWait);
    colors.bars[static_cast<size_t>(BarRole::NewConnections)] = pick(dark, "#495057", "#ced4da");
    colors.bars[static_cast<size_t>(BarRole::SynRetransmissions)] = colors.retransmission;
    colors.bars[static_cast<size_t>(BarRole::PortsInUse)] = colors.stall(StallGroup::PortExhaustion);
    colors.capacity = colors.retransmission;
    return colors;
}

QColor TimelineColors::mark(uint16_t style) const {
    if ((style & (markstyle::kReset | markstyle::kRetransmission)) != 0) {
        return retransmission;
    }
    if ((style & markstyle::kZeroWindow) != 0) {
        return zeroWindow;
    }
    if ((style & markstyle::kAnomaly) != 0) {
        return anomaly;
    }
    return (style & markstyle::kFromServer) != 0 ? toClient : toServer;
}

QColor TimelineColors::eventColor(uint16_t style) const {
    if ((style & eventStyle(EventKind::Failed)) != 0) {
        return eventFailed;
    }
    if ((style & eventStyle(EventKind::Write)) != 0) {
        return event;
    }
    if ((style & eventStyle(EventKind::Read)) != 0) {
        return eventRead;
    }
    return (style & eventStyle(EventKind::Wait)) != 0 ? eventWait : event;
}

QColor TimelineColors::stallFill(StallGroup cause) const {
    return withAlpha(stall(cause), dark ? 95 : 80);
}

void paintTimelineFrame(QPainter& painter, const TimelineFrame& frame, const TimelineColors& colors,
                        const QFont& font) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setFont(font);

    painter.save();
    painter.setClipRect(toQt(frame.lanesClip), Qt::IntersectClip);
    painter.fillRect(toQt(frame.lanesClip), colors.base);
    paintBoxes(painter, frame.boxes, colors);
    paintLines(painter, frame.lines, colors, LineSet::AllButLimits);
    paintBars(painter, frame, colors);
    paintLines(painter, frame.lines, colors, LineSet::Limits);  // over the bars that reach them
    paintSpans(painter, frame, colors);
    paintMarks(painter, frame, colors);
    paintInstantTicks(painter, frame, colors);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    paintTexts(painter, frame.texts, colors, font);
    painter.restore();

    paintBoxes(painter, frame.chromeBoxes, colors);
    paintLines(painter, frame.chromeLines, colors);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    paintTexts(painter, frame.chromeTexts, colors, font);
    painter.restore();
}

}  // namespace tcpscope::ui
