#pragma once
#include <QFont>
#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pictures/diagram_export.hpp"
#include "present/handshake_retries.hpp"
#include "timeline/timeline_paint.hpp"

class QPainter;

namespace tcpscope::ui {

/// Rows of the picture at most: with its heading it stays under the report's 2,000 px.
inline constexpr size_t kMaxHandshakePictureRows = 40;

/// The incident report's picture of a listen backlog overflow, laid out and not yet painted: a
/// row per delayed handshake with its SYNs on the client's backoff (1 s, 2 s, 4 s ...), the
/// SYN-ACKs, the wait from the first SYN to the answer as a bar, and a label per row ("+35.69 s:
/// SYN retried 9x, answered at 03:29:51.934 UTC"), over a ruler of seconds since the first SYN.
struct HandshakePicture {
    enum class MarkKind : uint8_t { FirstSyn, RetriedSyn, SynAck, Answer };
    struct Mark {
        MarkKind kind = MarkKind::FirstSyn;
        QPointF at;
    };
    struct Text {
        QRectF rect;
        QString text;
        bool muted = false;
    };
    QSizeF size;
    QFont font;
    std::vector<QRectF> stripes;  ///< every other row's background
    std::vector<QLineF> grid;     ///< the ruler's ticks down the rows
    std::vector<QRectF> waits;    ///< first SYN to answer, one per row
    std::vector<Mark> marks;
    std::vector<Text> labels;  ///< the row labels, one per row, in row order
    std::vector<Text> texts;   ///< gutter, ruler, legend and note
    std::vector<Mark> legendMarks;

    /// How many marks of `kind` the picture draws (the legend's not counted).
    [[nodiscard]] size_t count(MarkKind kind) const;
};

/// Lays out `retries` `widthPx` wide in `font`: at most as tall as it needs for its rows.
HandshakePicture layoutHandshakePicture(const HandshakeRetries& retries, double widthPx, const QFont& font);

/// Paints `picture` with its top-left corner at the painter's origin.
void paintHandshakePicture(QPainter& painter, const HandshakePicture& picture, const TimelineColors& colors);

/// The picture of `retries` as an export page `widthPx` wide, in the document palette.
ExportPage handshakeExportPage(const HandshakeRetries& retries, const QString& title, const QString& subtitle,
                               double widthPx);

}  // namespace tcpscope::ui
