// The incident report's text (Qt-free): which ladders it draws, the window of arrows, the
// findings and time-lost tables, and the Mermaid text with the same arrows as the ladder.
#include "report/incident_report.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "align/stall_confirmation.hpp"
#include "report/mermaid_sequence.hpp"

using namespace tcpscope;

namespace {

const CaptureAnalysis& proxyAnalysis() {
    static const CaptureAnalysis analysis = [] {
        CaptureAnalysis result = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap"}, {});
        const StraceAlignment alignment =
            loadStraceLogs({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.strace"}, result, {});
        confirmFindingsWithSyscalls(result.findings, alignment, *result.engine);
        return result;
    }();
    return analysis;
}

// The arrows of the first ```mermaid block.
std::vector<std::string> mermaidArrows(const std::string& markdown) {
    const size_t begin = markdown.find("```mermaid\n");
    const size_t end = markdown.find("```\n", begin + 3);
    std::istringstream block(markdown.substr(begin, end - begin));
    std::vector<std::string> arrows;
    for (std::string line; std::getline(block, line);) {
        if (line.find("->>") != std::string::npos) {
            arrows.push_back(line);
        }
    }
    return arrows;
}

}  // namespace

TEST_CASE("the report draws the stalled proxy pair once, with both sides' losses", "[report][incident]") {
    const CaptureAnalysis& analysis = proxyAnalysis();
    const std::vector<ReportLadder> ladders = reportLadders(analysis);
    REQUIRE(ladders.size() == 1);
    CHECK(ladders[0].flows == std::vector<uint32_t>{0, 1});
    CHECK(ladders[0].findings.size() == 2);
    CHECK(ladders[0].lostMs == Approx(1717.763 + 1733.514).epsilon(0.01));
}

TEST_CASE("the ladder window starts a few packets before the first stall", "[report][incident]") {
    const CaptureAnalysis& analysis = proxyAnalysis();
    const SequenceDiagram diagram = ladderDiagram(analysis, reportLadders(analysis).front());
    REQUIRE_FALSE(diagram.stalls().empty());
    const LadderWindow window = ladderWindow(diagram, 60);
    CHECK(window.first + 4 == diagram.stalls().front().startArrow);
    CHECK(window.count == 60);
    CHECK(ladderWindow(diagram, 100'000).first + ladderWindow(diagram, 100'000).count == diagram.arrows().size());
}

TEST_CASE("the Markdown report has the findings, the time lost and the ladder's arrows", "[report][incident]") {
    const CaptureAnalysis& analysis = proxyAnalysis();
    IncidentReportInput input;
    input.captureName = "proxy-nagle.pcap";
    input.ladderArrows = 40;
    input.timeline = {"Timeline", "timeline.png", "timeline.svg"};
    input.ladders = {{"Sequence diagram", "flow-0-1-sequence.png", ""}};
    std::ostringstream out;
    writeIncidentMarkdown(out, analysis, input);
    const std::string markdown = out.str();
    CHECK(markdown.find("# Incident report: proxy-nagle.pcap\n") == 0);
    CHECK(markdown.find("2 findings, 3451.3 ms lost in total.") != std::string::npos);
    CHECK(markdown.find("| # | severity | kind | flow | when (UTC) | time lost | summary |") != std::string::npos);
    CHECK(markdown.find("| 0 | warning | delayed_ack_stall | #1 | ") != std::string::npos);
    CHECK(markdown.find("Drawn: packets 16 to 55 of 492, from just before the first stall.") != std::string::npos);
    // Time lost: one row per flow with the kind's column, the total and the share of its life.
    CHECK(markdown.find("| #1 | 127.0.0.1:41402 | 127.0.0.1:3306 | 3.53 s | 1733.5 ms | 1733.5 ms | 49% |") !=
          std::string::npos);
    CHECK(markdown.find("![Sequence diagram](flow-0-1-sequence.png)") != std::string::npos);
    CHECK(markdown.find("[timeline.svg](timeline.svg) (vector)") != std::string::npos);

    // The Mermaid text has exactly the ladder's arrows of the window, in order.
    const SequenceDiagram diagram = ladderDiagram(analysis, reportLadders(analysis).front());
    const LadderWindow window = ladderWindow(diagram, 40);
    const std::vector<std::string> arrows = mermaidArrows(markdown);
    REQUIRE(arrows.size() == window.count);
    for (size_t i = 0; i < arrows.size(); ++i) {
        const SequenceArrow& arrow = diagram.arrows()[window.first + i];
        CHECK(arrows[i] == "    " + mermaidAlias(diagram, arrow.from) + "->>" + mermaidAlias(diagram, arrow.to) +
                               ": " + mermaidEscape(diagram.arrowLabel(window.first + i)));
    }
}

TEST_CASE("the HTML report escapes what it quotes", "[report][incident]") {
    const CaptureAnalysis& analysis = proxyAnalysis();
    IncidentReportInput input;
    input.captureName = "a<b>&c.pcap";
    std::ostringstream out;
    writeIncidentHtml(out, analysis, input);
    const std::string html = out.str();
    CHECK(html.find("<h1>Incident report: a&lt;b&gt;&amp;c.pcap</h1>") != std::string::npos);
    CHECK(html.find("<pre class=\"mermaid\">sequenceDiagram") != std::string::npos);
    CHECK(html.find("C-&gt;&gt;P") != std::string::npos);
    CHECK(html.rfind("</body></html>\n") == html.size() - 15);
}
