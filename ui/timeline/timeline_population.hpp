#pragma once
#include <string>

#include "timeline/timeline_layout.hpp"
#include "timeline/timeline_model.hpp"

namespace tcpscope::ui {

/// The two gutter lines of a capture-wide population row: "TIME_WAIT of 127.0.0.1",
/// "peak 100 of the 28,232-port range"; the last host's ports row counts the hosts left out
/// ("peak 30 · +2 hosts").
struct PopulationRowLabel {
    std::string title;
    std::string detail;
};
PopulationRowLabel populationRowLabel(const TimelineModel& model, PopulationRowKey row);

/// Lays out the plot part of capture-wide row `row` into `frame` (whose axis and plot are set):
/// one bar per pixel column, scaled to the row's top: the highest value in view, or a limit (the
/// port range when the counts reach a fifth of it, else the ports the client kept to) drawn as a
/// dashed line. Returns what a full bar stands for ("250/s"), or nothing when a limit is drawn.
/// A host's rows are scaled to its own port range.
std::string layoutPopulationRow(const TimelineModel& model, PopulationRowKey row, const LayoutRow& laid,
                                TimelineFrame& frame);

/// Lays out the density strip of group `group` of `model` in `band`: four thin strips (waiting on a SYN, open,
/// stalled, TIME_WAIT), each pixel column as dark as the share of the group's peak in that state
/// it holds. Reads only the members' lives and stalls: O(members + columns) a frame.
void layoutDensityStrip(const TimelineModel& model, size_t group, const LayoutRect& band, TimelineFrame& frame);

/// The bar roles a legend names for `model`: the density states when it shows groups.
[[nodiscard]] std::string barRoleLabel(BarRole role);

}  // namespace tcpscope::ui
