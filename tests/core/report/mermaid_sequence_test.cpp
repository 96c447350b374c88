// The Mermaid text of a sequence diagram: participants, one arrow per packet in capture order, the stall
// notes, the silence notes and the arrow limit.
#include "report/mermaid_sequence.hpp"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "present/value_format.hpp"
#include "support/sequence_capture.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

std::vector<std::string> arrowLines(const std::string& text) {
    std::vector<std::string> arrows;
    for (const std::string& line : linesOf(text)) {
        if (line.find("->>") != std::string::npos) {
            arrows.push_back(line);
        }
    }
    return arrows;
}

size_t lineIndexOf(const std::vector<std::string>& lines, const std::string& needle) {
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find(needle) != std::string::npos) {
            return i;
        }
    }
    return lines.size();
}

}  // namespace

TEST_CASE("a Nagle stall reads as arrows and a note over the side that waited", "[mermaid]") {
    const CaptureAnalysis analysis = analyzeBuilt(nagleConversation());
    REQUIRE(analysis.engine->connections().size() == 1);
    const SequenceDiagram diagram = SequenceDiagram::ofConnection(analysis, 0);
    REQUIRE(diagram.arrows().size() == 11);
    REQUIRE(diagram.stalls().size() == 1);

    const std::string text = mermaidSequence(diagram);
    const std::vector<std::string> lines = linesOf(text);
    REQUIRE(lines.at(0) == "sequenceDiagram");
    CHECK(lineIndexOf(lines, "    participant C as client 10.0.0.1:40000") < lines.size());
    CHECK(lineIndexOf(lines, "    participant S as server 10.0.0.2:3306") < lines.size());

    const std::vector<std::string> arrows = arrowLines(text);
    REQUIRE(arrows.size() == 11);
    CHECK(arrows[0] == "    C->>S: [S] seq=0 len=0");
    CHECK(arrows[1] == "    S->>C: [S.] seq=0 ack=1 len=0");
    CHECK(arrows[3] == "    C->>S: [P.] seq=1 ack=1 len=128");
    CHECK(arrows[4] == "    S->>C: [.] seq=1 ack=129 len=0");
    CHECK(arrows[5] == "    C->>S: [P.] seq=129 ack=1 len=35");

    // The note comes right after the write that began the wait, over the client that waited.
    const size_t first = lineIndexOf(lines, "[P.] seq=1 ack=1 len=128");
    const size_t note = lineIndexOf(lines, "Note over C: 35 bytes held by Nagle for 40.1 ms until the delayed ACK");
    CHECK(note == first + 1);
    // The 1.5 s of silence before the close is said, not drawn.
    const size_t silence = lineIndexOf(lines, "Note over C,S: 1.50 s without packets");
    REQUIRE(silence < lines.size());
    CHECK(lines.at(silence + 1).find("[F.]") != std::string::npos);
}

TEST_CASE("the Mermaid arrows follow the diagram's arrows one for one", "[mermaid]") {
    const CaptureAnalysis analysis = analyzeBuilt(nagleConversation({40.1, 1500, 4}));
    const SequenceDiagram diagram = SequenceDiagram::ofConnection(analysis, 0);
    const std::vector<std::string> arrows = arrowLines(mermaidSequence(diagram));
    REQUIRE(arrows.size() == diagram.arrows().size());
    for (size_t i = 0; i < arrows.size(); ++i) {
        const SequenceArrow& arrow = diagram.arrows()[i];
        const std::string expected = "    " + mermaidAlias(diagram, arrow.from) + "->>" +
                                     mermaidAlias(diagram, arrow.to) + ": " + diagram.arrowLabel(i);
        CHECK(arrows[i] == expected);
        if (i > 0) {
            CHECK(diagram.arrows()[i - 1].frame < arrow.frame);
        }
    }
    CHECK(diagram.stalls().size() == 4);
}

TEST_CASE("the arrow limit cuts the diagram and says how much is missing", "[mermaid]") {
    const CaptureAnalysis analysis = analyzeBuilt(nagleConversation({40.1, 1500, 4}));
    const SequenceDiagram diagram = SequenceDiagram::ofConnection(analysis, 0);
    MermaidOptions options;
    options.maxArrows = 6;
    const std::string text = mermaidSequence(diagram, options);
    CHECK(arrowLines(text).size() == 6);
    CHECK(text.find(fmt::format("Note over C,S: {} more packets not shown (limit of 6 arrows)",
                                diagram.arrows().size() - 6)) != std::string::npos);
    // Only the stall that began within the limit has its note.
    size_t notes = 0;
    for (const std::string& line : linesOf(text)) {
        notes += line.find("Note over C: ") != std::string::npos ? 1 : 0;
    }
    CHECK(notes == 1);

    options.firstArrow = 8;
    const std::string later = mermaidSequence(diagram, options);
    CHECK(later.find("Note over C,S: 8 earlier packets not shown") != std::string::npos);
    CHECK(arrowLines(later).front().find(diagram.arrowLabel(8)) != std::string::npos);
}

TEST_CASE("Mermaid text escapes what would end a message", "[mermaid]") {
    CHECK(mermaidEscape("a;b#c\nd") == "a#59;b#35;c d");
    CHECK(humanDuration(40'100'000) == "40.1 ms");
    CHECK(humanDuration(2'345'000'000) == "2.35 s");
    CHECK(humanDuration(250'000) == "0.250 ms");
}

TEST_CASE("the proxy sample: client, proxy and server with every Nagle stall noted", "[mermaid][sample]") {
    const CaptureAnalysis analysis = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap"}, {});
    REQUIRE(analysis.engine->connections().size() == 2);
    const SequenceDiagram diagram = SequenceDiagram::ofProxy(analysis, 0, 1);
    REQUIRE(diagram.participants().size() == 3);
    CHECK(diagram.participantTitle(1) == "proxy 127.0.0.1:3307 / 127.0.0.1:41402");
    REQUIRE(diagram.arrows().size() == analysis.engine->packets().size());
    CHECK(diagram.stalls().size() == 78);  // 39 on each side of the proxy, as the analyze report says

    MermaidOptions options;
    options.maxArrows = 10'000;
    const std::string text = mermaidSequence(diagram, options);
    const std::vector<std::string> lines = linesOf(text);
    CHECK(arrowLines(text).size() == diagram.arrows().size());
    size_t proxyNotes = 0;
    for (const std::string& line : lines) {
        if (line.rfind("    Note over P: ", 0) == 0) {
            ++proxyNotes;
            CHECK(line.find(" bytes held by Nagle for ") != std::string::npos);
            CHECK(line.find(" ms until the delayed ACK") != std::string::npos);
        }
    }
    CHECK(proxyNotes == 78);
    // The first stall: the proxy forwards 128 bytes to the server (frame 20) and holds 35 (frame 23).
    const size_t first = lineIndexOf(lines, "P->>S: [P.] seq=164 ack=164 len=128");
    REQUIRE(first < lines.size());
    CHECK(lines.at(first + 1).rfind("    Note over P: 35 bytes held by Nagle for 46.", 0) == 0);
    CHECK(lineIndexOf(lines, "C->>P: [S] seq=0 len=0") < lineIndexOf(lines, "P->>S: [S] seq=0 len=0"));
}

TEST_CASE("the path-MTU sample: one box per episode, labelled from the finding's spans", "[mermaid][sample]") {
    const CaptureAnalysis analysis = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/rtt/rtt-path-mtu-server.pcap"}, {});
    const Finding* pathMtu = nullptr;
    for (const Finding& finding : analysis.findings) {
        if (finding.kind == FindingKind::PathMtu) {
            pathMtu = &finding;
        }
    }
    REQUIRE(pathMtu != nullptr);
    REQUIRE(pathMtu->nextHopMtu == 1200u);
    // The typed spans say what the report's evidence lists: one per episode, the bytes it resends.
    const nlohmann::json& instances = pathMtu->evidence["instances"];
    REQUIRE(!pathMtu->spans.empty());
    REQUIRE(pathMtu->spans.size() == instances.size());
    CHECK(pathMtu->totalSpans == pathMtu->evidence["episodes"].get<uint32_t>());
    for (size_t index = 0; index < pathMtu->spans.size(); ++index) {
        CHECK(pathMtu->spans[index].bytes == instances[index]["bytes"].get<uint32_t>());
    }

    const SequenceDiagram diagram = SequenceDiagram::ofConnection(analysis, pathMtu->connection);
    size_t boxes = 0;
    for (const SequenceStall& stall : diagram.stalls()) {
        if (stall.kind != FindingKind::PathMtu) {
            continue;
        }
        const FindingSpan& span = pathMtu->spans.at(boxes++);
        CHECK(stall.text == fmt::format("{} bytes refused as too big, resent smaller after {:.1f} ms", span.bytes,
                                        static_cast<double>(span.endNs - span.startNs) / 1e6));
        CHECK(stall.explanation.find("packets of 1200 bytes at most") != std::string::npos);
    }
    CHECK(boxes == pathMtu->spans.size());
}
