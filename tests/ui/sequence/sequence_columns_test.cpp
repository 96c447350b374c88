// The sequence diagram's columns: the time column keeps every digit of a long capture (over a minute, over
// an hour), and a Nagle bracket's text has room to be read even in a proxy's narrow column, below
// the proxy's system call labels.
#include <QImage>
#include <QPainter>
#include <catch2/catch.hpp>

#include "sequence/sequence_layout.hpp"
#include "sequence/sequence_painter.hpp"
#include "sequence/sequence_syscalls.hpp"
#include "support/sequence_capture.hpp"

using namespace tcpscope;
using namespace tcpscope::test;
using namespace tcpscope::ui;

namespace {

// The leftmost x of the time column's text in the row of arrow `row`, in an image of rows
// [row, row + 1), or -1 if there is none: text right-aligned in a column too narrow for it is cut
// at x = 0.
int leftmostTimePixel(const SequenceLayout& layout, size_t row) {
    SequencePaintOptions options;
    const SequenceRowRange rows{row, row + 1};
    const QSizeF size = sequenceRenderSize(layout, rows, options);
    QImage image(size.toSize(), QImage::Format_ARGB32);
    {
        QPainter painter(&image);
        renderSequence(painter, QRectF(QPointF(0, 0), size), layout, rows, options);
    }
    const double y = sequenceHeaderHeight(options) + layout.rowY(row) - layout.contentRect(rows).top();
    const QColor gutter = image.pixelColor(static_cast<int>(layout.timeGutter()) - 6, static_cast<int>(y) - 12);
    for (int x = 0; x < static_cast<int>(layout.timeGutter()); ++x) {
        for (int dy = -6; dy <= 6; ++dy) {
            const QColor pixel = image.pixelColor(x, static_cast<int>(y) + dy);
            if (std::abs(pixel.lightness() - gutter.lightness()) > 60) {
                return x;
            }
        }
    }
    return -1;
}

// The proxy sample with its system call trace, and its three-lifeline sequence diagram at `width`.
ResultsPtr proxySampleWithStrace() {
    CaptureAnalysis analysis = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap"}, {});
    StraceAlignment alignment = loadStraceLogs({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.strace"}, analysis, {});
    return AnalysisResults::complete(std::move(analysis), std::move(alignment));
}

SequenceLayout proxySequence(const ResultsPtr& results, double width) {
    SequenceScale scale;
    scale.width = width;
    SequenceLayout layout = SequenceLayout::ofProxy(results, 0, 1, scale);
    REQUIRE(results->alignment() != nullptr);
    layout.setSyscalls(sequenceSyscalls(*results->alignment(), *layout.diagram()));
    return layout;
}

}  // namespace

TEST_CASE("the time column writes minutes and hours and keeps every microsecond", "[sequence][layout]") {
    CHECK(sequenceTimeText(21'136'000) == QStringLiteral("0.021136"));
    CHECK(sequenceTimeText(59'999'999'000) == QStringLiteral("59.999999"));
    CHECK(sequenceTimeText(63'500'000'000) == QStringLiteral("1:03.500000"));
    CHECK(sequenceTimeText(3'723'000'001'000) == QStringLiteral("1:02:03.000001"));
    CHECK(sequenceTimeText(-1'500'000) == QStringLiteral("-0.001500"));
}

TEST_CASE("a capture longer than a minute, and one longer than an hour, show their times whole", "[sequence][layout]") {
    for (const double silenceMs : {61'000.0, 3'700'000.0}) {
        INFO("silence " << silenceMs << " ms");
        const ResultsPtr results = AnalysisResults::complete(analyzeBuilt(nagleConversation({40.1, silenceMs, 1})));
        const SequenceLayout layout = SequenceLayout::ofConnection(results, 0);
        REQUIRE(layout.rowCount() > 3);
        const size_t last = layout.rowCount() - 1;
        const SequenceDrawList list = layout.prepare(layout.contentRect({last, last + 1}));
        const auto closing = std::find_if(list.arrows.begin(), list.arrows.end(),
                                          [last](const auto& arrow) { return arrow.arrow == last; });
        REQUIRE(closing != list.arrows.end());
        CHECK(closing->time.contains(QLatin1Char(':')));
        CHECK(closing->time.startsWith(silenceMs > 3'600'000 ? QStringLiteral("1:01:") : QStringLiteral("1:01.")));
        CHECK(layout.timeGutter() > SequenceLayout::kTimeGutter);
        // Drawn whole: the text starts clear of the image's left edge, where a cut text would begin.
        CHECK(leftmostTimePixel(layout, last) >= 3);
        // The first rows, under a second, keep the narrow column's layout.
        CHECK(list.timeGutter == layout.timeGutter());
    }
    const SequenceLayout shortCapture =
        SequenceLayout::ofConnection(AnalysisResults::complete(analyzeBuilt(nagleConversation())), 0);
    CHECK(shortCapture.timeGutter() == SequenceLayout::kTimeGutter);
}

TEST_CASE("a Nagle bracket's text in a proxy's narrow column is wide enough and leaves the system call labels readable",
          "[sequence][layout][sample]") {
    const ResultsPtr results = proxySampleWithStrace();
    for (const double width : {900.0, 1280.0}) {
        INFO("width " << width);
        const SequenceLayout layout = proxySequence(results, width);
        const SequenceDrawList list = layout.prepare(QRectF(0, 0, width, layout.totalHeight()));
        REQUIRE(list.brackets.size() == 78);
        for (const auto& bracket : list.brackets) {
            CHECK(bracket.labelRect.width() >= 250);
            CHECK(bracket.labelRect.left() >= layout.timeGutter());
            CHECK(bracket.labelRect.right() <= width);
        }
        size_t proxyLabels = 0;
        for (const auto& syscall : list.syscalls) {
            if (syscall.lifeline != 1) {
                continue;
            }
            ++proxyLabels;
            // The label's line: from beside the lifeline across its lane (the painter's text is
            // no wider than the lane).
            const double x0 = syscall.x + 3 * syscall.direction;
            const double x1 = x0 + SequenceLayout::kSyscallLane * syscall.direction;
            const QRectF label(QPointF(std::min(x0, x1), syscall.labelY - 7), QPointF(std::max(x0, x1), syscall.labelY + 7));
            for (const auto& bracket : list.brackets) {
                INFO("syscall '" << syscall.label.toStdString() << "' at y " << syscall.labelY << ", bracket text "
                                 << bracket.labelRect.top() << "-" << bracket.labelRect.bottom());
                CHECK_FALSE(bracket.labelRect.intersects(label));
            }
        }
        CHECK(proxyLabels > 100);
    }
}
