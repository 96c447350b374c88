// The incident report's text (Qt-free): its incidents and causes and what each draws, the window of
// arrows, the one-screen summary (impact, cause, fix, evidence), the affected connections, and the
// Mermaid text with the same arrows as the sequence diagram.
#include "report/incident_report.hpp"

#include <catch2/catch.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "align/stall_confirmation.hpp"
#include "incident/incident_builder.hpp"
#include "report/mermaid_sequence.hpp"

using namespace tcpscope;

namespace {

const CaptureAnalysis& proxyAnalysis() {
    static const CaptureAnalysis analysis = [] {
        CaptureAnalysis result = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap"}, {});
        const StraceAlignment alignment =
            loadStraceLogs({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.strace"}, result, {});
        confirmFindingsWithSyscalls(result, alignment);
        return result;
    }();
    return analysis;
}

const StraceAlignment& proxyAlignment() {
    static const StraceAlignment alignment =
        loadStraceLogs({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.strace"}, proxyAnalysis(), {});
    return alignment;
}

std::string markdownOf(const CaptureAnalysis& analysis, const IncidentReportInput& input) {
    std::ostringstream out;
    writeIncidentMarkdown(out, analysis, input);
    return out.str();
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

size_t occurrences(const std::string& text, const std::string& part) {
    size_t count = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        ++count;
    }
    return count;
}

// The text between "## Summary" and the first section.
std::string summaryOf(const std::string& markdown) {
    const size_t begin = markdown.find("## Summary");
    return markdown.substr(begin, markdown.find("\n## 1. ", begin) - begin);
}

}  // namespace

TEST_CASE("each side of the stalled proxy is a cause - the pair's sequence diagram is drawn once",
          "[report][incident]") {
    const std::vector<ReportSection> sections = reportSections(proxyAnalysis());
    REQUIRE(sections.size() == 2);
    for (const ReportSection& section : sections) {
        CHECK(section.group.kind == FindingKind::DelayedAckStall);
        CHECK(section.picture == SectionPicture::Sequence);
        CHECK(section.sequence.flows == std::vector<uint32_t>{0, 1});
    }
    CHECK_FALSE(sections[0].sameSequenceAs);
    CHECK(sections[1].sameSequenceAs == size_t{0});
    CHECK(sections[0].wallMs >= sections[1].wallMs);
}

TEST_CASE("the sequence diagram window starts a few packets before the first stall", "[report][incident]") {
    const CaptureAnalysis& analysis = proxyAnalysis();
    const SequenceDiagram diagram = sectionDiagram(analysis, reportSections(analysis).front().sequence);
    REQUIRE_FALSE(diagram.stalls().empty());
    const SequenceWindow window = sequenceWindow(diagram, 60);
    CHECK(window.first + 4 == diagram.stalls().front().startArrow);
    CHECK(window.count == 60);
    CHECK(sequenceWindow(diagram, 100'000).first + sequenceWindow(diagram, 100'000).count == diagram.arrows().size());
}

TEST_CASE("the summary says what happened, the wall-clock impact, the cause and the fix once", "[report][incident]") {
    const CaptureAnalysis& analysis = proxyAnalysis();
    IncidentReportInput input;
    input.captureName = "proxy-nagle.pcap";
    input.alignment = &proxyAlignment();
    const std::string markdown = markdownOf(analysis, input);
    CHECK(markdown.find("# Incident report: proxy-nagle.pcap\n") == 0);
    const std::string summary = summaryOf(markdown);
    INFO(summary);
    CHECK(summary.find("**What happened.** 2 causes in 2 findings:") != std::string::npos);
    CHECK(summary.find("- Nagle + delayed ACK, 127.0.0.1 -> 127.0.0.1:") != std::string::npos);
    CHECK(std::regex_search(summary, std::regex(R"(\*\*Impact\.\*\* Something waited during [0-9.]+ s of the )"
                                                R"(capture's 3\.55 s \([0-9]+%\): 78 requests delayed)")));
    CHECK(summary.find("**Root cause.** The sender wrote each message in more than one small write") !=
          std::string::npos);
    CHECK(summary.find("**Fix.** Set TCP_NODELAY") != std::string::npos);
    CHECK(summary.find("First wait (Nagle + delayed ACK), flow #") != std::string::npos);
    CHECK(summary.find("strace confirms") != std::string::npos);
    CHECK(summary.find("TCP_NODELAY was never set") != std::string::npos);
    // The fix: once in the summary, once in the first section; the second section points to it.
    CHECK(occurrences(markdown, "Set TCP_NODELAY on the sending socket") == 2);
    CHECK(markdown.find("**Fix.** as in section 1.") != std::string::npos);
    CHECK(markdown.find("**Picture.** the sequence diagram above, of flows #0 and #1 (client, proxy, server), shows "
                        "these stalls too.") != std::string::npos);
}

TEST_CASE("with its incidents, the report of the stalled proxy is one incident: both sides, the chain, the fix once",
          "[report][incident]") {
    const CaptureAnalysis& analysis = proxyAnalysis();
    const std::vector<Incident> incidents = buildIncidents(analysis, {});
    REQUIRE(incidents.size() == 1);
    const std::vector<ReportSection> sections = reportSections(analysis);
    const IncidentCauses causes = causesOfIncidents(analysis, sections, incidents);
    CHECK(causes.ofIncident.front() == std::vector<size_t>{0, 1});
    CHECK(causes.outside.empty());

    IncidentReportInput input;
    input.captureName = "proxy-nagle.pcap";
    input.alignment = &proxyAlignment();
    input.incidents = &incidents;
    const std::string markdown = markdownOf(analysis, input);
    const std::string summary = summaryOf(markdown);
    INFO(markdown);
    CHECK(summary.find("**What happened.** " + incidents[0].title) != std::string::npos);
    CHECK(summary.find("78 delayed") != std::string::npos);
    CHECK(summary.find("**Why.** ") != std::string::npos);
    CHECK(summary.find("**Fix.**") != std::string::npos);
    CHECK(summary.find("strace confirms") != std::string::npos);
    CHECK(summary.find("Something waited during") == std::string::npos);  // no share of the capture
    CHECK(markdown.find("## 1. " + incidents[0].title + "\n") != std::string::npos);
    CHECK(markdown.find("## 2. ") == std::string::npos);
    CHECK(markdown.find("**Cause.** small writes held by Nagle") != std::string::npos);  // a chain of one step
    CHECK(occurrences(markdown, "### Nagle + delayed ACK") == 2);
    CHECK(occurrences(markdown, "```mermaid") == 1);
    CHECK(occurrences(markdown, "**Fix.**") == 2);  // the summary's and the incident's
    for (const std::string& sentence : incidents[0].fix.doThis) {
        CHECK(occurrences(markdown, sentence) == 2);
    }
}

TEST_CASE("a section lists its connections and the sequence diagram's Mermaid text has the picture's arrows",
          "[report][incident]") {
    const CaptureAnalysis& analysis = proxyAnalysis();
    IncidentReportInput input;
    input.captureName = "proxy-nagle.pcap";
    input.sequenceArrows = 40;
    input.timeline = {"Timeline", "timeline.png", "timeline.svg", "", ""};
    input.sections = {{"Sequence diagram", "cause-1-sequence.png", "", "", ""}, {}};
    const std::string markdown = markdownOf(analysis, input);
    CHECK(markdown.find("| flow | client | server | waits | waited | worst | first (UTC) |") != std::string::npos);
    CHECK(markdown.find("Drawn: packets") == std::string::npos);
    CHECK(markdown.find("packets 16 to 55 of 492, from just before the first stall") != std::string::npos);
    CHECK(markdown.find("![Sequence diagram](cause-1-sequence.png)") != std::string::npos);
    CHECK(markdown.find("[timeline.svg](timeline.svg) (vector)") != std::string::npos);
    CHECK(occurrences(markdown, "```mermaid") == 1);

    const SequenceDiagram diagram = sectionDiagram(analysis, reportSections(analysis).front().sequence);
    const SequenceWindow window = sequenceWindow(diagram, 40);
    const std::vector<std::string> arrows = mermaidArrows(markdown);
    REQUIRE(arrows.size() == window.count);
    for (size_t i = 0; i < arrows.size(); ++i) {
        const SequenceArrow& arrow = diagram.arrows()[window.first + i];
        CHECK(arrows[i] == "    " + mermaidAlias(diagram, arrow.from) + "->>" + mermaidAlias(diagram, arrow.to) + ": " +
                               mermaidEscape(diagram.arrowLabel(window.first + i)));
    }
}

TEST_CASE("population causes get their picture and a short table of the connections or pauses", "[report][incident]") {
    const CaptureAnalysis backlog = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/backlog-overflow.pcap"}, {});
    const std::vector<ReportSection> sections = reportSections(backlog);
    REQUIRE(sections.size() == 1);
    CHECK(sections[0].picture == SectionPicture::Handshakes);
    const ReportBlock table = affectedTable(backlog, sections[0]);
    // The header, at most ten connections, and the rest counted in one row.
    REQUIRE(table.rows.size() == 12);
    CHECK(table.rows.back().front() == "and 8 more (8 waits)");
    const std::string markdown = markdownOf(backlog, {});
    const std::string summary = summaryOf(markdown);
    INFO(summary);
    CHECK(summary.find("Listen backlog overflow, listener 127.0.0.1:9200 (error): 18 handshakes delayed") !=
          std::string::npos);
    CHECK(summary.find("**Fix.** Accept faster") != std::string::npos);
    CHECK(summary.find("Longest wait (Listen backlog overflow), flow #") != std::string::npos);

    const CaptureAnalysis churn = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/churn-exhaustion.pcap"}, {});
    const std::vector<ReportSection> churnSections = reportSections(churn);
    REQUIRE_FALSE(churnSections.empty());
    CHECK(churnSections[0].group.kind == FindingKind::PortExhaustion);
    CHECK(churnSections[0].picture == SectionPicture::PortPool);
    const ReportBlock pauses = affectedTable(churn, churnSections[0]);
    REQUIRE(pauses.rows.size() >= 2);
    CHECK(pauses.rows[1].front() == "pause");
}

TEST_CASE("the HTML report escapes what it quotes and loads no other file", "[report][incident]") {
    const CaptureAnalysis& analysis = proxyAnalysis();
    IncidentReportInput input;
    input.captureName = "a<b>&c.pcap";
    input.timeline = {"Timeline", "timeline.png", "timeline.svg", "data:image/png;base64,AAAA", ""};
    std::ostringstream out;
    writeIncidentHtml(out, analysis, input);
    const std::string html = out.str();
    CHECK(html.find("<h1>Incident report: a&lt;b&gt;&amp;c.pcap</h1>") != std::string::npos);
    CHECK(html.find("<pre class=\"mermaid\">sequenceDiagram") != std::string::npos);
    CHECK(html.find("C-&gt;&gt;P") != std::string::npos);
    CHECK(html.find("<img src=\"data:image/png;base64,AAAA\"") != std::string::npos);
    CHECK(html.find("timeline.svg") == std::string::npos);
    CHECK(html.find("href=") == std::string::npos);
    CHECK(html.rfind("</body></html>\n") == html.size() - 15);

    std::ostringstream print;
    HtmlReportOptions options;
    options.forPrint = true;
    writeIncidentHtml(print, analysis, input, options);
    CHECK(print.str().find("<img src=\"timeline.png\" width=\"680\"") != std::string::npos);
    CHECK(print.str().find("sequenceDiagram") == std::string::npos);
}
