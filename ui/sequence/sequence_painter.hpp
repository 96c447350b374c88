#pragma once
#include <QColor>
#include <QPainter>
#include <QPalette>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include "sequence/sequence_layout.hpp"
#include "views/note_pins.hpp"

namespace tcpscope::ui {

/// How a sequence diagram is painted: colours come from the palette (light or dark), never fixed text colours.
struct SequencePaintOptions {
    QPalette palette;
    size_t selectedArrow = kNoArrow;  ///< drawn in the highlight colour
    QString title;                    ///< a line above the lifelines (exports: capture, connections, time range)
    bool legend = false;              ///< a line under the diagram that explains the marks (exports)
    bool syscallLegend = false;       ///< a second legend line for system calls (set by renderSequence)
    NotePins notes;                   ///< the user's notes, drawn at their times (null: none)
};

/// `options` with the system call legend line on when it has a legend and `layout` has syscalls.
SequencePaintOptions withLayoutLegend(const SequenceLayout& layout, SequencePaintOptions options);
/// The colour of stalls: an amber that reads on light and on dark backgrounds.
QColor sequenceStallColor(const QPalette& palette);
/// Height of the band above the rows: the title, if any, and the lifelines' names.
double sequenceHeaderHeight(const SequencePaintOptions& options);
/// Height of the legend under the rows, `width` wide: a row, or two with system calls, more where a
/// narrow picture wraps it (0 without a legend).
double sequenceLegendHeight(const SequencePaintOptions& options, double width);

/// Paints the rows of `list` in content coordinates (the caller translates and clips).
void paintSequenceContent(QPainter& painter, const SequenceLayout& layout, const SequenceDrawList& list,
                          const SequencePaintOptions& options);
/// Paints the title and the lifelines' names in a band of sequenceHeaderHeight() from y = 0.
void paintSequenceHeader(QPainter& painter, const SequenceDrawList& list, double width,
                         const SequencePaintOptions& options);
/// Paints the legend in a band of sequenceLegendHeight() from y = 0.
void paintSequenceLegend(QPainter& painter, double width, const SequencePaintOptions& options);

/// The natural size of `rows` with header and legend, at the layout's width.
QSizeF sequenceRenderSize(const SequenceLayout& layout, SequenceRowRange rows, const SequencePaintOptions& options);
/// Paints `rows` with header (and legend) into `target`, scaled uniformly to fit and centred
/// horizontally: the one drawing routine of the screen, SVG, PDF and PNG.
void renderSequence(QPainter& painter, const QRectF& target, const SequenceLayout& layout, SequenceRowRange rows,
                    const SequencePaintOptions& options);

}  // namespace tcpscope::ui
