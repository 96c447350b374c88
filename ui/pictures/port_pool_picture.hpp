#pragma once
#include <QFont>
#include <QRectF>
#include <QString>
#include <vector>

#include "pictures/diagram_export.hpp"
#include "present/port_pool_marks.hpp"
#include "timeline/timeline_layout.hpp"
#include "timeline/timeline_model.hpp"

namespace tcpscope::ui {

class TimelineView;

/// What the incident report's picture of a port exhaustion or TIME_WAIT churn cause draws over the
/// timeline's capture-wide rows: each pause shaded across the rows and labelled with its length
/// (in the new connections row, empty during a pause), the port-range limit's dashed line
/// labelled under it, and the lane of failed connect() calls labelled with their count. Laid out from a
/// prepared frame; painted over it.
struct PortPoolOverlay {
    struct Label {
        QRectF rect;  ///< a box on the base colour, so that it reads over bars
        QString text;
    };
    std::vector<QRectF> pauses;
    std::vector<Label> pauseLabels;  ///< parallel to `pauses`
    std::optional<Label> limitLabel;
    std::optional<Label> failedConnectsLabel;  ///< over the lane of the failed connect() calls
};

/// Lays out `marks` over `frame` (a timeline frame of the capture-wide rows) in `font`.
PortPoolOverlay layoutPortPoolOverlay(const TimelineFrame& frame, const PortPoolMarks& marks, const QFont& font);

/// The lane of the failed connect() calls of `marks` (labelled with their count), for the
/// timeline's extra lanes (the last of them: the overlay labels it); nullopt when the trace has none.
std::optional<TimelineLane> failedConnectsLane(const PortPoolMarks& marks);

/// `page` (the timeline of `view` over `range`, from timelineExportPage) with `marks` drawn over it.
/// `view` must outlive the page.
void addPortPoolOverlay(ExportPage& page, const TimelineView& view, TimeRange range, const PortPoolMarks& marks);

}  // namespace tcpscope::ui
