// The sequence diagram's layout without a window: time runs down, silences are cut on request, only the
// rows in view are laid out, and the stalls' brackets sit beside the side that waited.
#include "sequence/sequence_layout.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

#include "models/packets_model.hpp"
#include "support/sequence_capture.hpp"

using namespace tcpscope;
using namespace tcpscope::test;
using namespace tcpscope::ui;

namespace {

ResultsPtr builtResults(const SequenceScript& script) {
    return AnalysisResults::complete(analyzeBuilt(nagleConversation(script)));
}

ResultsPtr sampleResults() {
    static const ResultsPtr results =
        AnalysisResults::complete(analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap"}, {}));
    return results;
}

SequenceScale uncompressed() {
    SequenceScale scale;
    scale.compressGaps = false;
    return scale;
}

}  // namespace

TEST_CASE("rows go down as time goes on, a stall as tall as its time", "[sequence][layout]") {
    const SequenceLayout layout = SequenceLayout::ofConnection(builtResults({40.1, 1500, 3}), 0, uncompressed());
    REQUIRE(layout.rowCount() == 6 + 3 * 5);
    const auto& arrows = layout.diagram()->arrows();
    for (size_t row = 1; row < layout.rowCount(); ++row) {
        INFO("row " << row);
        CHECK(layout.rowY(row) - layout.rowY(row - 1) >= layout.scale().rowHeight);
        CHECK(arrows[row].tsNs >= arrows[row - 1].tsNs);
    }
    // The first 128-byte write (row 3) and its delayed ACK (row 4), 40.08 ms later at 3 px/ms.
    CHECK(layout.rowY(4) - layout.rowY(3) == Approx(40.08 * 3).epsilon(1e-6));
    // The 1.5 s silence before the close keeps its true height without compression.
    const size_t fin = layout.rowCount() - 3;
    CHECK_FALSE(layout.breakBefore(fin));
    const double silenceMs = static_cast<double>(arrows[fin].tsNs - arrows[fin - 1].tsNs) / 1e6;
    CHECK(silenceMs > 1500);
    CHECK(layout.rowY(fin) - layout.rowY(fin - 1) == Approx(silenceMs * 3).epsilon(1e-6));

    // Time and height map both ways, exactly at arrows and in between.
    for (size_t row = 0; row < layout.rowCount(); ++row) {
        CHECK(layout.yOfTime(arrows[row].tsNs) == Approx(layout.rowY(row)));
    }
    const int64_t middle = arrows[3].tsNs + 20'000'000;
    CHECK(layout.yOfTime(middle) > layout.rowY(3));
    CHECK(layout.yOfTime(middle) < layout.rowY(4));
    CHECK(std::llabs(layout.timeAtY(layout.yOfTime(middle)) - middle) < 10'000);
}

TEST_CASE("the compressed scale cuts silences above the threshold and keeps the order", "[sequence][layout]") {
    SequenceScale scale;
    scale.compressGaps = true;
    scale.gapThresholdNs = 1'000'000'000;
    const SequenceLayout layout = SequenceLayout::ofConnection(builtResults({40.1, 1500, 3}), 0, scale);
    const size_t fin = layout.rowCount() - 3;
    size_t cuts = 0;
    for (size_t row = 1; row < layout.rowCount(); ++row) {
        CHECK(layout.rowY(row) > layout.rowY(row - 1));
        cuts += layout.breakBefore(row) ? 1 : 0;
    }
    CHECK(cuts == 1);
    REQUIRE(layout.breakBefore(fin));
    CHECK(layout.rowY(fin) - layout.rowY(fin - 1) == Approx(scale.rowHeight + scale.breakHeight));
    // The stalls (40 ms) are below the threshold: still drawn to scale.
    CHECK(layout.rowY(4) - layout.rowY(3) == Approx(40.08 * scale.pixelsPerMs).epsilon(1e-6));

    const SequenceDrawList list = layout.prepare(QRectF(0, 0, scale.width, layout.totalHeight()));
    REQUIRE(list.breaks.size() == 1);
    CHECK(list.breaks[0].label == QStringLiteral("1.50 s without packets"));
    CHECK(list.breaks[0].bottom <= layout.rowY(fin));
    CHECK(list.breaks[0].top >= layout.rowY(fin - 1));
    CHECK(list.arrows.size() == layout.rowCount());

    // A lower threshold cuts the Nagle waits too, and the arrows keep their order.
    scale.gapThresholdNs = 30'000'000;
    const SequenceLayout tight = SequenceLayout::ofConnection(layout.results(), 0, scale);
    size_t tightCuts = 0;
    for (size_t row = 1; row < tight.rowCount(); ++row) {
        CHECK(tight.rowY(row) > tight.rowY(row - 1));
        tightCuts += tight.breakBefore(row) ? 1 : 0;
    }
    CHECK(tightCuts == 4);  // three delayed ACKs and the silence
    CHECK(tight.totalHeight() < layout.totalHeight());
}

TEST_CASE("a 50,000-packet connection lays out only the rows in view", "[sequence][layout]") {
    const ResultsPtr results = builtResults({40.1, 100, 10'000});
    SequenceLayout layout = SequenceLayout::ofConnection(results, 0);
    REQUIRE(layout.rowCount() == 50'006);
    const double viewportHeight = 700;
    const double top = layout.rowY(31'234) - 100;
    const SequenceDrawList list = layout.prepare(QRectF(0, top, 1000, viewportHeight));
    CHECK(list.arrows.size() <= static_cast<size_t>(viewportHeight / layout.scale().rowHeight) + 2);
    CHECK(list.arrows.size() >= 3);
    for (size_t i = 0; i < list.arrows.size(); ++i) {
        CHECK(list.arrows[i].arrow == list.arrows.front().arrow + i);
        CHECK(list.arrows[i].start.y() >= top - 20);
        CHECK(list.arrows[i].start.y() <= top + viewportHeight + SequenceLayout::kLabelHeight);
    }
    const bool hasRow =
        std::any_of(list.arrows.begin(), list.arrows.end(), [](const auto& a) { return a.arrow == 31'234; });
    CHECK(hasRow);
    CHECK(list.brackets.size() <= 6);
    const SequenceRowRange rows = layout.rowsIn(top, top + viewportHeight);
    CHECK(rows.end - rows.first == list.arrows.size());
}

TEST_CASE("proxy sample: each Nagle bracket stands beside the proxy, over the wait", "[sequence][layout][sample]") {
    const SequenceLayout layout = SequenceLayout::ofProxy(sampleResults(), 0, 1);
    REQUIRE(layout.rowCount() == 492);
    const std::vector<double> xs = layout.lifelineXs();
    REQUIRE(xs.size() == 3);
    CHECK(xs[0] < xs[1]);
    CHECK(xs[1] < xs[2]);
    const SequenceDrawList list = layout.prepare(QRectF(0, 0, layout.scale().width, layout.totalHeight()));
    REQUIRE(list.brackets.size() == 78);
    const SequenceDiagram& diagram = *layout.diagram();
    size_t towardsServer = 0;
    for (const auto& bracket : list.brackets) {
        const SequenceStall& stall = diagram.stalls()[bracket.stall];
        INFO("stall " << bracket.stall << ": " << stall.text);
        CHECK(stall.lifeline == 1);  // the proxy waits, on both of its connections
        CHECK(std::abs(bracket.x - xs[1]) == Approx(12));
        CHECK(bracket.top == Approx(layout.rowY(stall.startArrow)));
        CHECK(bracket.bottom == Approx(layout.rowY(stall.endArrow)));
        CHECK(bracket.bottom - bracket.top > 100);  // ~45 ms at 3 px/ms: the wait is visible
        // The band spans the connection's column, the text sits inside it between the arrows.
        const double peerX = stall.peer == 2 ? xs[2] : xs[0];
        CHECK(bracket.receiverX == peerX);
        CHECK(bracket.band.left() == Approx(std::min(bracket.x, peerX)));
        CHECK(bracket.band.right() == Approx(std::max(bracket.x, peerX)));
        CHECK(bracket.band.contains(bracket.labelRect));
        CHECK(bracket.labelRect.top() > bracket.top + layout.scale().slopePx);
        REQUIRE(bracket.causeY > 0);
        CHECK(bracket.labelRect.bottom() < bracket.causeY - SequenceLayout::kLabelHeight);
        CHECK(bracket.text.contains(QStringLiteral(" bytes held by Nagle for ")));
        towardsServer += bracket.direction > 0 ? 1 : 0;
    }
    CHECK(towardsServer == 39);
    // The arrows of the first stall: the 128 bytes (frame 20), the late ACK (21), the 35 bytes (23).
    const auto byFrame = [&](uint32_t frame) {
        return *std::find_if(list.arrows.begin(), list.arrows.end(),
                             [frame](const auto& a) { return a.frame == frame; });
    };
    CHECK(byFrame(20).inStall);
    CHECK(byFrame(21).inStall);
    CHECK(byFrame(21).note.startsWith(QStringLiteral("delayed ACK (46.")));
    CHECK(byFrame(23).note.startsWith(QStringLiteral("held 46.")));
    CHECK(byFrame(23).inStall);
    CHECK(byFrame(23).label == QStringLiteral("[P.] seq=292 ack=164 len=35"));
    CHECK_FALSE(byFrame(22).inStall);
}

TEST_CASE("a click finds the arrow under the pointer", "[sequence][layout]") {
    const SequenceLayout layout = SequenceLayout::ofProxy(sampleResults(), 0, 1);
    const std::vector<double> xs = layout.lifelineXs();
    const size_t row = layout.diagram()->arrowOfFrame(23);  // proxy -> server
    REQUIRE(row != kNoArrow);
    const double middleX = (xs[1] + xs[2]) / 2;
    CHECK(layout.arrowAt(QPointF(middleX, layout.rowY(row) + 3)) == row);
    CHECK(layout.arrowAt(QPointF(middleX, layout.rowY(row) - 8)) == row);                   // on its label
    CHECK(layout.arrowAt(QPointF((xs[0] + xs[1]) / 2, layout.rowY(row) + 3)) == kNoArrow);  // other column
    CHECK(layout.arrowAt(QPointF(middleX, (layout.rowY(row) + layout.rowY(row - 1)) / 2 - 30)) == kNoArrow);
}

TEST_CASE("syscalls sit beside their lifeline at their time, close ones stacked or folded", "[sequence][layout]") {
    SequenceLayout layout = SequenceLayout::ofProxy(sampleResults(), 0, 1);
    const auto& arrows = layout.diagram()->arrows();
    const int64_t write128 = arrows[layout.diagram()->arrowOfFrame(20)].tsNs - 30'000;
    std::vector<SequenceSyscall> syscalls = {
        {write128 + 40'000, 2'000, QStringLiteral("write(5, 35) = 35"), 1},
        {write128, 5'000, QStringLiteral("write(5, 128) = 128"), 1},
        {write128 + 10'000'000, 36'000'000, QStringLiteral("epoll_wait = 1"), 1},
        {write128 - 100'000, 0, QStringLiteral("sendto(3, 163) = 163"), 0},
        {write128, 0, QStringLiteral("bad lifeline"), 7},
    };
    layout.setSyscalls(syscalls);
    CHECK(layout.syscalls().front().label == QStringLiteral("sendto(3, 163) = 163"));  // sorted by time
    const double y = layout.yOfTime(write128);
    const SequenceDrawList list = layout.prepare(QRectF(0, y - 200, layout.scale().width, 400));
    const std::vector<double> xs = layout.lifelineXs();
    REQUIRE(list.syscalls.size() == 4);
    const auto& client = list.syscalls[0];
    CHECK(client.lifeline == 0);
    CHECK(client.x == xs[0]);
    CHECK(client.direction < 0);  // outside the diagram, left of the client
    const auto& write = list.syscalls[1];
    CHECK(write.label == QStringLiteral("write(5, 128) = 128"));
    CHECK(write.lifeline == 1);
    CHECK(write.x == xs[1]);
    CHECK(write.y == Approx(y));
    CHECK(write.labelY == Approx(y));
    // 40 us later is less than a line lower: its bar is at its time, its label one line lower.
    const auto& second = list.syscalls[2];
    CHECK(second.label == QStringLiteral("write(5, 35) = 35"));
    CHECK(second.y - write.y < 15);  // closer than a line of text
    CHECK(second.labelY == Approx(write.labelY + 15));
    const auto& wait = list.syscalls[3];
    CHECK(wait.label == QStringLiteral("epoll_wait = 1"));
    CHECK(wait.labelY == Approx(wait.y));
    CHECK(wait.height > 100);  // 36 ms of waiting at 3 px/ms

    // A burst at one instant: four lines of labels, the rest counted on the last one.
    std::vector<SequenceSyscall> burst;
    for (int i = 0; i < 7; ++i) {
        burst.push_back({write128 + i * 1'000, 0, QStringLiteral("write(5, %1) = %1").arg(i + 1), 2});
    }
    layout.setSyscalls(burst);
    const SequenceDrawList folded = layout.prepare(QRectF(0, y - 200, layout.scale().width, 400));
    REQUIRE(folded.syscalls.size() == 4);
    CHECK(folded.syscalls.back().label == QStringLiteral("write(5, 4) = 4  (+3)"));
    CHECK(folded.syscalls.back().x == layout.lifelineXs()[2]);
    CHECK(layout.lifelineXs()[2] < xs[2]);  // the server's syscalls are labelled in a wider margin

    layout.setSyscalls({});
    CHECK(layout.prepare(QRectF(0, y - 200, layout.scale().width, 400)).syscalls.empty());
}

TEST_CASE("arrows name their analysis flags in Wireshark's words, not its field names", "[sequence][layout][sample]") {
    const ResultsPtr results =
        AnalysisResults::complete(analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/backlog-overflow.pcap"}, {}));
    // A client of the full listen backlog: its SYN sent again, flagged as a retransmission.
    const auto retried = std::find_if(results->connections().begin(), results->connections().end(),
                                      [](const Connection& c) { return c.synCount > 1; });
    REQUIRE(retried != results->connections().end());
    const SequenceLayout layout = SequenceLayout::ofConnection(results, retried->id, uncompressed());
    const SequenceDrawList list = layout.prepare(QRectF(0, 0, layout.scale().width, layout.totalHeight()));
    size_t flagged = 0;
    for (const SequenceDrawList::Arrow& arrow : list.arrows) {
        INFO(arrow.label.toStdString());
        const AnalysisFlags flags = layout.diagram()->packetOf(arrow.arrow).analysis;
        CHECK_FALSE(arrow.label.contains(QLatin1Char('_')));
        if (flags != 0) {
            ++flagged;
            CHECK(arrow.label.endsWith(QStringLiteral("(%1)").arg(analysisFlagsText(flags))));
        }
    }
    CHECK(flagged > 0);
    CHECK(analysisFlagsText(bit(AnalysisFlag::Retransmission)) == QStringLiteral("Retransmission"));
    CHECK(analysisFlagsText(bit(AnalysisFlag::LostSegment) | bit(AnalysisFlag::WindowFull)) ==
          QStringLiteral("Previous segment not captured, Window full"));
}
