#pragma once
#include <QColor>
#include <QFont>
#include <QPalette>
#include <array>

#include "timeline/timeline_layout.hpp"

class QPainter;

namespace tcpscope::ui {

/// The timeline's colours: the palette's own roles for surfaces and text (so light and dark
/// themes both work), and a few hues, lighter on dark backgrounds, for packets and stalls.
struct TimelineColors {
    bool dark = false;
    QColor base, stripe, selectedLane, groupHeader, outsideCapture;
    QColor text, mutedText, rulerBackground, rulerText, grid, tick, lifeBar, selection;
    QColor toServer, toClient, retransmission, zeroWindow, anomaly, control, reset;
    std::array<QColor, kStallGroupCount> stalls;
    QColor event;  ///< writes and calls without a kind of their own
    QColor eventRead, eventWait, eventFailed;
    std::array<QColor, 7> bars;  ///< by BarRole: density states and capture-wide counts
    QColor capacity;             ///< a population row's limit line

    static TimelineColors fromPalette(const QPalette& palette);
    /// The colour of a mark of `style` bits: the most serious flag wins, then the direction.
    [[nodiscard]] QColor mark(uint16_t style) const;
    /// The colour of an extra lane's event of eventStyle() bits: a failure, then bytes moved, then waits.
    [[nodiscard]] QColor eventColor(uint16_t style) const;
    [[nodiscard]] QColor stall(StallGroup cause) const { return stalls[static_cast<size_t>(cause)]; }
    [[nodiscard]] QColor bar(BarRole role) const { return bars[static_cast<size_t>(role)]; }
    /// A stall's fill, translucent so the packets under it stay visible.
    [[nodiscard]] QColor stallFill(StallGroup cause) const;
};

/// Paints a prepared frame with its top-left corner at the painter's origin.
void paintTimelineFrame(QPainter& painter, const TimelineFrame& frame, const TimelineColors& colors, const QFont& font);

}  // namespace tcpscope::ui
