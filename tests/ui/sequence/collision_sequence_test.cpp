// The sequence diagram of a port reuse collision (issue 26): a bracket beside the client from its first SYN to
// the handshake's end, labelled "+16.0 ms: SYN into the server's TIME_WAIT of #3"; the packets named
// by what they are instead of another connection's raw sequence numbers; and the incident report's
// picture of it, the handshake only, under 2,000 px.
#include <QDir>
#include <QImageReader>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

#include "pictures/headless_export.hpp"
#include "report/incident_sections.hpp"
#include "sequence/sequence_layout.hpp"
#include "support/sequence_capture.hpp"

using namespace tcpscope;
using namespace tcpscope::test;
using namespace tcpscope::ui;

namespace {

constexpr uint32_t kCollidingFlow = 4;  // its SYN ran into the server's TIME_WAIT of #3

ResultsPtr collisionResults() {
    static const ResultsPtr results =
        AnalysisResults::complete(analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/port-reuse-collision.pcap"}, {}));
    return results;
}

}  // namespace

TEST_CASE("collision sample: a bracket beside the client says how long the SYN waited and on which connection",
          "[sequence][layout][sequence-diagram][sample]") {
    const SequenceLayout layout = SequenceLayout::ofConnection(collisionResults(), kCollidingFlow);
    REQUIRE_FALSE(layout.isEmpty());
    const SequenceDiagram& diagram = *layout.diagram();
    REQUIRE(diagram.stalls().size() == 1);
    const SequenceStall& stall = diagram.stalls().front();
    CHECK(stall.kind == FindingKind::PortReuse);
    CHECK(stall.earlierConnection == kCollidingFlow - 1);
    CHECK(stall.startArrow == 0);  // the first SYN

    const SequenceDrawList list =
        layout.prepare(QRectF(0, 0, layout.scale().width, layout.contentRect({0, 12}).bottom()));
    REQUIRE(list.brackets.size() == 1);
    const SequenceDrawList::Bracket& bracket = list.brackets.front();
    INFO(bracket.text.toStdString());
    static const QRegularExpression delay(QStringLiteral(
        R"(^\+[0-9]+\.[0-9] ms: SYN into the server's TIME_WAIT of #3, closed [0-9]+\.[0-9] ms before$)"));
    CHECK(delay.match(bracket.text).hasMatch());
    CHECK(bracket.explanation.contains(QLatin1String("#3 closed")));
    // Beside the client, which waited: its bar left of the middle, from the first SYN down.
    const double clientX = list.lifelines.front().x;
    const double serverX = list.lifelines.back().x;
    CHECK(std::abs(bracket.x - clientX) < std::abs(bracket.x - serverX));
    CHECK(bracket.top == Approx(layout.rowY(0)));
    CHECK(bracket.bottom == Approx(layout.rowY(stall.endArrow)));

    // Its text sits in the silence before the SYN again, clear of every arrow and label of the span.
    REQUIRE_FALSE(bracket.labelRect.isEmpty());
    for (size_t row = 0; row <= stall.endArrow; ++row) {
        INFO("row " << row);
        const double labelTop = layout.rowY(row) - SequenceLayout::kLabelHeight;
        const double arrowBottom = layout.rowY(row) + layout.scale().slopePx;
        CHECK((bracket.labelRect.bottom() <= labelTop || bracket.labelRect.top() >= arrowBottom));
    }

    QStringList labels;
    for (const SequenceDrawList::Arrow& arrow : list.arrows) {
        if (arrow.arrow <= stall.endArrow) {
            labels << arrow.label;
        }
    }
    INFO(labels.join(QLatin1String(" | ")).toStdString());
    CHECK(labels.front() == QLatin1String("[S] SYN (reuses the 4-tuple of #3)"));
    CHECK(labels.contains(QLatin1String("[.] challenge ACK (ack for #3's sequence space)")));
    CHECK(labels.contains(QLatin1String("[R] RST (client drops the old state)")));
    CHECK(labels.contains(QLatin1String("[S] SYN again")));
    // No number of #3's sequence space passes for this connection's.
    static const QRegularExpression hugeNumber(QStringLiteral(R"((seq|ack)=[0-9]{7,})"));
    CHECK_FALSE(hugeNumber.match(labels.join(QLatin1Char(' '))).hasMatch());
}

TEST_CASE("collision sample: the report draws the handshake of the worst collision, not its bulk data",
          "[report][sequence-diagram][sample]") {
    const ResultsPtr results = collisionResults();
    const SequenceDiagram diagram = SequenceDiagram::ofConnection(*results->analysis(), kCollidingFlow);
    const SequenceWindow window = reportSequenceWindow(diagram, 60);
    REQUIRE_FALSE(diagram.stalls().empty());
    CHECK(window.first == 0);
    CHECK(window.count > diagram.stalls().front().endArrow);
    CHECK(window.count <= diagram.stalls().front().endArrow + 5);
    CHECK(diagram.packetOf(window.first + window.count - 1).payloadLength > 0);  // it ends at the first data

    QTemporaryDir dir;
    const ExportOutcome outcome = exportIncidentReport(results, dir.path());
    REQUIRE(outcome.error.isEmpty());
    const QStringList pictures = QDir(dir.path()).entryList({QStringLiteral("*-sequence.png")}, QDir::Files);
    REQUIRE(pictures.size() == 1);
    const QSize size = QImageReader(QDir(dir.path()).filePath(pictures.front())).size();
    INFO(pictures.front().toStdString() << ": " << size.width() << " x " << size.height());
    CHECK(size.height() > 0);
    CHECK(size.height() <= 2000);
}
