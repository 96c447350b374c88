#pragma once
#include <QString>

#include "views/sequence_view.hpp"
#include "views/timeline_view.hpp"

class QWidget;

namespace tcpscope::ui {

/// Writes what a view shows now to `path` (format by suffix; `scale` for PNG): the sequence
/// diagram's visible packets, or the timeline's visible time range with every lane. Returns an
/// empty string or one line saying why not.
QString exportShownView(const QString& path, double scale, const TimelineView& timeline, const SequenceView& sequence,
                        bool sequenceShown);

/// File > Export diagram: asks for a file (SVG, PDF, PNG, PNG at 2x) and exports the shown view.
void exportShownViewDialog(QWidget* parent, const TimelineView& timeline, const SequenceView& sequence,
                           bool sequenceShown);

}  // namespace tcpscope::ui
