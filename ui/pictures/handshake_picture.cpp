#include "pictures/handshake_picture.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "finding/wording.hpp"
#include "timeline/timeline_axis.hpp"

namespace tcpscope::ui {

namespace {

constexpr double kFontPx = 12;
constexpr double kMinGutterPx = 150;
constexpr double kMaxGutterShare = 0.3;  // of the width
constexpr double kRightPadPx = 16;
constexpr double kRulerPx = 26;
constexpr double kRowPx = 42;
constexpr double kMarkRadiusPx = 4.5;
constexpr double kWaitBarPx = 4;
// The client's SYNs sit above the wait, the server's SYN-ACKs below it: an answer right after a
// retry (a queue that just freed up) hides neither.
constexpr double kSideOffsetPx = 5;
constexpr double kLegendPx = 30;
constexpr double kNotePx = 20;
constexpr double kTimePad = 0.02;  // of the time drawn, left empty at each end

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

}  // namespace

size_t HandshakePicture::count(MarkKind kind) const {
    return static_cast<size_t>(
        std::count_if(marks.begin(), marks.end(), [kind](const Mark& mark) { return mark.kind == kind; }));
}

HandshakePicture layoutHandshakePicture(const HandshakeRetries& retries, double widthPx, const QFont& font) {
    HandshakePicture picture;
    picture.font = font;
    picture.font.setPixelSize(static_cast<int>(kFontPx));
    const QFontMetricsF metrics(picture.font);
    const double lineHeight = std::ceil(metrics.height());
    // The gutter as wide as its widest line: "#92961  10.16.14.211:41848".
    std::vector<QString> names;
    double gutterPx = kMinGutterPx;
    for (const RetriedHandshake& row : retries.rows) {
        names.push_back(QStringLiteral("#%1  %2").arg(row.connection).arg(qs(row.client)));
        gutterPx = std::max(gutterPx, metrics.horizontalAdvance(names.back()) + 20);
    }
    gutterPx = std::min(gutterPx, widthPx * kMaxGutterShare);
    const double plotLeft = gutterPx;
    const double plotWidth = std::max(widthPx - gutterPx - kRightPadPx, 100.0);
    const double plotRight = plotLeft + plotWidth;
    const int64_t spanNs = std::max<int64_t>(retries.endNs - retries.startNs, 1'000'000);
    const auto padNs = static_cast<int64_t>(static_cast<double>(spanNs) * kTimePad);
    const TimeAxis axis = TimeAxis::fit({retries.startNs - padNs, retries.endNs + padNs}, plotLeft, plotWidth);
    const double rowsTop = kRulerPx;
    const double rowsBottom = rowsTop + kRowPx * static_cast<double>(retries.rows.size());

    // The ruler: seconds since the first SYN, its ticks down through the rows.
    const RulerTicks ticks = rulerTicks(axis, plotWidth, retries.startNs, false, [&metrics](const std::string& text) {
        return metrics.horizontalAdvance(qs(text));
    });
    picture.texts.push_back({QRectF(4, 4, gutterPx - 8, lineHeight), QStringLiteral("since the first SYN"), true});
    for (const RulerTick& tick : ticks.ticks) {
        if (tick.tsNs < retries.startNs) {
            continue;  // nothing before the first SYN
        }
        const QString label = qs(tick.label);
        const double width = metrics.horizontalAdvance(label);
        picture.texts.push_back({QRectF(std::min(tick.x + 3, plotRight - width), 4, width, lineHeight), label, true});
        picture.grid.emplace_back(tick.x, 2, tick.x, rowsBottom);
    }

    for (size_t index = 0; index < retries.rows.size(); ++index) {
        const RetriedHandshake& row = retries.rows[index];
        const double top = rowsTop + kRowPx * static_cast<double>(index);
        if (index % 2 == 1) {
            picture.stripes.emplace_back(0, top, widthPx, kRowPx);
        }
        const double markY = top + kRowPx - kSideOffsetPx - kMarkRadiusPx - 3;
        picture.texts.push_back({QRectF(8, top + 2, gutterPx - 16, lineHeight), names[index], false});
        picture.texts.push_back({QRectF(8, top + 2 + lineHeight, gutterPx - 16, lineHeight),
                                 qs(plural(row.retriedSynsNs.size(), "retry", "retries")), true});
        const double firstX = axis.toX(row.firstSynNs);
        const double endX = axis.toX(row.firstSynNs + row.waitNs);
        picture.waits.emplace_back(firstX, markY - kWaitBarPx / 2, std::max(endX - firstX, 1.0), kWaitBarPx);
        picture.marks.push_back({HandshakePicture::MarkKind::FirstSyn, {firstX, markY - kSideOffsetPx}});
        for (const int64_t synNs : row.retriedSynsNs) {
            picture.marks.push_back({HandshakePicture::MarkKind::RetriedSyn, {axis.toX(synNs), markY - kSideOffsetPx}});
        }
        for (const int64_t synAckNs : row.synAcksNs) {
            const bool answer = row.answerNs && *row.answerNs == synAckNs;
            picture.marks.push_back({answer ? HandshakePicture::MarkKind::Answer : HandshakePicture::MarkKind::SynAck,
                                     {axis.toX(synAckNs), markY + kSideOffsetPx}});
        }
        // The label over its row's marks, from the first SYN, kept inside the plot.
        const QString label = qs(row.label);
        const double width = metrics.horizontalAdvance(label) + 2;
        const double x = std::clamp(firstX, plotLeft, std::max(plotLeft, plotRight - width));
        picture.labels.push_back({QRectF(x, top + 3, width, lineHeight), label, false});
    }

    // The legend, then what was left out.
    double y = rowsBottom + 8;
    double x = plotLeft;
    const auto legendItem = [&](HandshakePicture::MarkKind kind, const QString& text) {
        const double width = metrics.horizontalAdvance(text);
        // A narrow picture (the PDF report's) wraps its legend rather than cut it at the edge.
        if (x > plotLeft && x + 2 * kMarkRadiusPx + 6 + width > widthPx - 8) {
            x = plotLeft;
            y += lineHeight + 6;
        }
        picture.legendMarks.push_back({kind, {x + kMarkRadiusPx, y + lineHeight / 2}});
        picture.texts.push_back({QRectF(x + 2 * kMarkRadiusPx + 6, y, width + 2, lineHeight), text, false});
        x += 2 * kMarkRadiusPx + 6 + width + 24;
    };
    legendItem(HandshakePicture::MarkKind::FirstSyn, QStringLiteral("first SYN"));
    legendItem(HandshakePicture::MarkKind::RetriedSyn, QStringLiteral("SYN retried (dropped: the queue was full)"));
    legendItem(HandshakePicture::MarkKind::Answer, QStringLiteral("SYN-ACK that answered"));
    if (picture.count(HandshakePicture::MarkKind::SynAck) > 0) {
        legendItem(HandshakePicture::MarkKind::SynAck, QStringLiteral("SYN-ACK sent again"));
    }
    double bottom = y - 8 + kLegendPx;
    if (retries.leftOut > 0) {
        picture.texts.push_back(
            {QRectF(plotLeft, bottom, plotWidth, lineHeight), qs(handshakesLeftOutText(retries)), true});
        bottom += kNotePx;
    }
    picture.size = QSizeF(widthPx, bottom);
    return picture;
}

namespace {

void paintMark(QPainter& painter, const HandshakePicture::Mark& mark, const TimelineColors& colors) {
    const QPointF at = mark.at;
    switch (mark.kind) {
        case HandshakePicture::MarkKind::FirstSyn:
            painter.setPen(QPen(colors.toServer, 2));
            painter.setBrush(colors.base);
            painter.drawEllipse(at, kMarkRadiusPx, kMarkRadiusPx);
            break;
        case HandshakePicture::MarkKind::RetriedSyn:
            painter.setPen(QPen(colors.base, 1));
            painter.setBrush(colors.retransmission);
            painter.drawEllipse(at, kMarkRadiusPx, kMarkRadiusPx);
            break;
        case HandshakePicture::MarkKind::SynAck:
        case HandshakePicture::MarkKind::Answer: {
            const double r = kMarkRadiusPx + 1;
            QPainterPath diamond;
            diamond.moveTo(at.x(), at.y() - r);
            diamond.lineTo(at.x() + r, at.y());
            diamond.lineTo(at.x(), at.y() + r);
            diamond.lineTo(at.x() - r, at.y());
            diamond.closeSubpath();
            const bool answer = mark.kind == HandshakePicture::MarkKind::Answer;
            painter.setPen(QPen(colors.toClient, answer ? 1 : 2));
            painter.setBrush(answer ? QBrush(colors.toClient) : QBrush(colors.base));
            painter.drawPath(diamond);
            break;
        }
    }
}

}  // namespace

void paintHandshakePicture(QPainter& painter, const HandshakePicture& picture, const TimelineColors& colors) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setFont(picture.font);
    for (const QRectF& stripe : picture.stripes) {
        painter.fillRect(stripe, colors.stripe);
    }
    painter.setPen(QPen(colors.grid, 1));
    for (const QLineF& line : picture.grid) {
        painter.drawLine(line);
    }
    QColor wait = colors.stall(StallGroup::SynBacklog);
    wait.setAlpha(110);
    for (const QRectF& bar : picture.waits) {
        painter.fillRect(bar, wait);
    }
    for (const HandshakePicture::Mark& mark : picture.marks) {
        paintMark(painter, mark, colors);
    }
    for (const HandshakePicture::Mark& mark : picture.legendMarks) {
        paintMark(painter, mark, colors);
    }
    for (const auto* texts : {&picture.texts, &picture.labels}) {
        for (const HandshakePicture::Text& text : *texts) {
            painter.setPen(text.muted ? colors.mutedText : colors.text);
            painter.drawText(text.rect, Qt::AlignLeft | Qt::AlignVCenter, text.text);
        }
    }
    painter.restore();
}

ExportPage handshakeExportPage(const HandshakeRetries& retries, const QString& title, const QString& subtitle,
                               double widthPx) {
    auto picture = std::make_shared<HandshakePicture>(layoutHandshakePicture(retries, widthPx, QFont()));
    ExportPage page;
    page.title = title;
    page.subtitle = subtitle;
    page.size = picture->size;
    page.render = [picture](QPainter& painter, const QRectF& target) {
        painter.save();
        painter.translate(target.topLeft());
        paintHandshakePicture(painter, *picture, TimelineColors::fromPalette(documentPalette()));
        painter.restore();
    };
    return page;
}

}  // namespace tcpscope::ui
