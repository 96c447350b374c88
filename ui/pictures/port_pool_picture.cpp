#include "pictures/port_pool_picture.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>

#include "timeline/syscall_lanes.hpp"
#include "timeline/timeline_paint.hpp"
#include "timeline/timeline_view.hpp"

namespace tcpscope::ui {

namespace {

constexpr double kFontPx = 12;
constexpr double kLabelPadPx = 4;

QFont overlayFont(const QFont& base) {
    QFont font = base;
    font.setPixelSize(static_cast<int>(kFontPx));
    font.setBold(true);
    return font;
}

// A label box of `text` centred on (centreX, centreY), kept inside [left, right]: elided where the plot
// is narrower than it (the PDF report's pictures; the picture's note says it whole).
PortPoolOverlay::Label labelAt(const QString& fullText, double centreX, double centreY, double left, double right,
                               const QFontMetricsF& metrics) {
    const QString text = metrics.elidedText(fullText, Qt::ElideRight, std::max(0.0, right - left - 2 * kLabelPadPx));
    const double width = metrics.horizontalAdvance(text) + 2 * kLabelPadPx;
    const double height = metrics.height() + 2;
    const double x = std::clamp(centreX - width / 2, left, std::max(left, right - width));
    return {QRectF(x, centreY - height / 2, width, height), text};
}

}  // namespace

PortPoolOverlay layoutPortPoolOverlay(const TimelineFrame& frame, const PortPoolMarks& marks, const QFont& font) {
    PortPoolOverlay overlay;
    if (frame.rows.empty()) {
        return overlay;
    }
    const QFontMetricsF metrics(overlayFont(font));
    const LayoutRect& plot = frame.plot;
    const double top = frame.rows.front().rect.y;
    const double bottom = frame.rows.back().rect.bottom();
    // The new connections row is empty during a pause: its label goes there.
    double labelY = top + metrics.height() / 2 + 3;
    for (const LayoutRow& row : frame.rows) {
        if (row.kind == RowKind::Population && row.index == static_cast<uint32_t>(PopulationRow::ConnectionRate)) {
            labelY = row.rect.y + row.rect.h / 2;
        }
    }
    for (const PortPoolPause& pause : marks.pauses) {
        const double startX = std::clamp(frame.axis.toX(pause.startNs), plot.x, plot.right());
        const double endX = std::clamp(frame.axis.toX(pause.endNs), plot.x, plot.right());
        if (endX <= startX) {
            continue;
        }
        overlay.pauses.emplace_back(startX, top, endX - startX, bottom - top);
        overlay.pauseLabels.push_back(
            labelAt(QString::fromStdString(pause.label), (startX + endX) / 2, labelY, plot.x, plot.right(), metrics));
    }
    if (!marks.limitLabel.empty()) {
        // Where the counts sit at the limit: in the middle of the first pause (of the plot without one),
        // under the pause's label, clear of where TIME_WAIT starts to expire at its end.
        const auto limit = std::find_if(frame.lines.begin(), frame.lines.end(),
                                        [](const LayoutLine& line) { return line.role == LineRole::Capacity; });
        const double centreX = overlay.pauses.empty() ? plot.x + plot.w / 2 : overlay.pauses.front().center().x();
        if (limit != frame.lines.end()) {
            overlay.limitLabel =
                labelAt(QString::fromStdString(marks.limitLabel), centreX, limit->y1, plot.x, plot.right(), metrics);
        }
    }
    const LayoutRow* failedLane = nullptr;
    for (const LayoutRow& row : frame.rows) {
        if (row.kind == RowKind::Extra && (failedLane == nullptr || row.index > failedLane->index)) {
            failedLane = &row;
        }
    }
    if (!marks.failedConnectsNs.empty() && failedLane != nullptr) {
        const double startX = std::clamp(frame.axis.toX(marks.failedConnectsNs.front()), plot.x, plot.right());
        const double endX = std::clamp(frame.axis.toX(marks.failedConnectsNs.back()), plot.x, plot.right());
        overlay.failedConnectsLabel =
            labelAt(QString::fromStdString(marks.failedConnectsLabel), (startX + endX) / 2,
                    failedLane->rect.y + failedLane->rect.h / 2, plot.x, plot.right(), metrics);
    }
    return overlay;
}

std::optional<TimelineLane> failedConnectsLane(const PortPoolMarks& marks) {
    if (marks.failedConnectsNs.empty()) {
        return std::nullopt;
    }
    return failedCallsLane(marks.failedConnectsNs, "connect() failed (strace)");
}

void addPortPoolOverlay(ExportPage& page, const TimelineView& view, TimeRange range, const PortPoolMarks& marks) {
    page.render = [&view, range, marks, drawTimeline = page.render](QPainter& painter, const QRectF& target) {
        drawTimeline(painter, target);
        TimelineRenderOptions options;
        options.legend = true;
        options.scrollYPx = 0;
        const TimelineFrame frame = view.prepareFrame(target.size(), range, options);
        const PortPoolOverlay overlay = layoutPortPoolOverlay(frame, marks, view.font());
        const TimelineColors colors = TimelineColors::fromPalette(documentPalette());
        QColor shade = colors.stall(StallGroup::PortExhaustion);
        shade.setAlpha(45);
        QColor edge = colors.stall(StallGroup::PortExhaustion);
        painter.save();
        painter.translate(target.topLeft());
        painter.setClipRect(QRectF(QPointF(0, 0), target.size()), Qt::IntersectClip);
        painter.setFont(overlayFont(view.font()));
        for (const QRectF& pause : overlay.pauses) {
            painter.fillRect(pause, shade);
            painter.setPen(QPen(edge, 1.5));
            painter.drawLine(pause.topLeft(), pause.bottomLeft());
            painter.drawLine(pause.topRight(), pause.bottomRight());
        }
        std::vector<std::pair<const PortPoolOverlay::Label*, QColor>> labels;
        for (const PortPoolOverlay::Label& label : overlay.pauseLabels) {
            labels.emplace_back(&label, edge);
        }
        if (overlay.limitLabel) {
            labels.emplace_back(&*overlay.limitLabel, colors.capacity);
        }
        if (overlay.failedConnectsLabel) {
            labels.emplace_back(&*overlay.failedConnectsLabel, colors.eventFailed);
        }
        for (const auto& [label, colour] : labels) {
            QColor box = colors.base;
            box.setAlpha(230);
            painter.setPen(QPen(colour, 1));
            painter.setBrush(box);
            painter.drawRoundedRect(label->rect, 3, 3);
            painter.setPen(colors.text);
            painter.drawText(label->rect, Qt::AlignCenter, label->text);
        }
        painter.restore();
    };
}

}  // namespace tcpscope::ui
