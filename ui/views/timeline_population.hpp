#pragma once
#include <string>

#include "views/timeline_layout.hpp"
#include "views/timeline_model.hpp"

namespace tcpscope::ui {

/// The two gutter lines of a capture-wide population row: "TIME_WAIT of 127.0.0.1",
/// "peak 100 · range 32768-60999".
struct PopulationRowLabel {
    std::string title;
    std::string detail;
};
PopulationRowLabel populationRowLabel(const TimelineModel& model, PopulationRow row);

/// Lays out the plot part of capture-wide row `row` into `frame` (whose axis and plot are set):
/// one bar per pixel column, scaled to the row's top: the highest value in view, or a limit (the
/// port range when the counts reach a fifth of it, else the ports the client kept to) drawn as a
/// dashed line. Returns what a full bar stands for ("250/s"), or nothing when a limit is drawn.
std::string layoutPopulationRow(const TimelineModel& model, PopulationRow row, const LayoutRow& laid,
                                TimelineFrame& frame);

/// Lays out the density strip of `group` in `band`: four thin strips (waiting on a SYN, open,
/// stalled, TIME_WAIT), each pixel column as dark as the share of the group's peak in that state
/// it holds. Reads only the members' lives and stalls: O(members + columns) a frame.
void layoutDensityStrip(const TimelineModel& model, const LaneGroup& group, const LayoutRect& band,
                        TimelineFrame& frame);

/// The bar roles a legend names for `model`: the density states when it shows groups.
[[nodiscard]] std::string barRoleLabel(BarRole role);

}  // namespace tcpscope::ui
