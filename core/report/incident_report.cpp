#include "report/incident_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "report/mermaid_sequence.hpp"
#include "report/report_format.hpp"
#include "report/time_lost.hpp"
#include "tcp/proxy_pair.hpp"

namespace tcpscope {

namespace {

constexpr size_t kArrowsBeforeStall = 4;

// The report as a list of blocks, written out as Markdown or HTML.
struct Block {
    enum class Kind : uint8_t { Heading, Paragraph, Table, Image, Code };
    Kind kind = Kind::Paragraph;
    int level = 2;
    std::string text;                            // heading, paragraph, code; image: its title
    std::vector<std::vector<std::string>> rows;  // table: the header first
    std::string file;                            // image
    std::string vectorFile;                      // image
};

std::string flowsText(const std::vector<uint32_t>& flows) {
    return flows.size() == 2 ? fmt::format("flows #{} and #{} (client, proxy, server)", flows[0], flows[1])
                             : fmt::format("flow #{}", flows.front());
}

std::string msText(double ms) {
    return fmt::format("{:.1f} ms", ms);
}

std::vector<Block> captureBlocks(const CaptureAnalysis& analysis, const IncidentReportInput& input) {
    std::vector<Block> blocks;
    blocks.push_back({Block::Kind::Heading, 1, fmt::format("Incident report: {}", input.captureName), {}, {}, {}});
    const AnalysisEngine& engine = *analysis.engine;
    std::string files;
    for (const InputSummary& file : analysis.inputs) {
        files += (files.empty() ? "" : ", ") + file.path;
    }
    std::string capture = fmt::format("Capture {}: {} packets, {} connections, from {} to {} UTC ({}).", files,
                                      engine.packets().size(), engine.connections().size(),
                                      utcTimestamp(engine.firstTsNs()), utcTimestamp(engine.lastTsNs()),
                                      humanDuration(engine.lastTsNs() - engine.firstTsNs()));
    if (input.alignment != nullptr) {
        std::string logs;
        for (const AlignedLog& log : input.alignment->logs) {
            for (const std::string& file : log.files) {
                logs += (logs.empty() ? "" : ", ") + file;
            }
        }
        capture += fmt::format(" System calls from {} ({} sockets tied to connections).", logs,
                               std::count_if(input.alignment->sockets.begin(), input.alignment->sockets.end(),
                                             [](const TracedSocket& s) { return s.connection != kNoConnection; }));
    }
    blocks.push_back({Block::Kind::Paragraph, 0, capture, {}, {}, {}});
    double lost = 0;
    for (const Finding& finding : analysis.findings) {
        lost += finding.durationMs;
    }
    blocks.push_back({Block::Kind::Paragraph, 0,
                      analysis.findings.empty()
                          ? std::string("No findings: nothing in this capture cost time that tcpscope can explain.")
                          : fmt::format("{} findings, {} lost in total.", analysis.findings.size(), msText(lost)),
                      {}, {}, {}});
    return blocks;
}

Block findingsTable(const CaptureAnalysis& analysis) {
    std::vector<const Finding*> sorted;
    for (const Finding& finding : analysis.findings) {
        sorted.push_back(&finding);
    }
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Finding* a, const Finding* b) { return a->durationMs > b->durationMs; });
    Block table{Block::Kind::Table, 0, {}, {{"#", "severity", "kind", "flow", "when (UTC)", "time lost", "summary"}}, {},
                {}};
    for (const Finding* finding : sorted) {
        table.rows.push_back({std::to_string(finding->id), std::string(severityName(finding->severity)),
                              std::string(findingKindName(finding->kind)),
                              finding->connection == kNoConnection ? "-" : fmt::format("#{}", finding->connection),
                              utcTimestamp(finding->tsNs), msText(finding->durationMs), finding->summary});
    }
    return table;
}

Block timeLostTable(const CaptureAnalysis& analysis) {
    const std::vector<TimeLostByKind> lost = timeLostByFlow(analysis);
    std::set<std::string> kinds;
    for (const TimeLostByKind& flow : lost) {
        for (const auto& [kind, ms] : flow) {
            kinds.insert(kind);
        }
    }
    Block table{Block::Kind::Table, 0, {}, {{"flow", "client", "server", "life"}}, {}, {}};
    table.rows.front().insert(table.rows.front().end(), kinds.begin(), kinds.end());
    table.rows.front().insert(table.rows.front().end(), {"total", "share of life"});
    const auto& connections = analysis.engine->connections();
    std::vector<uint32_t> order;
    for (uint32_t id = 0; id < lost.size(); ++id) {
        if (totalMs(lost[id]) > 0) {
            order.push_back(id);
        }
    }
    std::stable_sort(order.begin(), order.end(),
                     [&lost](uint32_t a, uint32_t b) { return totalMs(lost[a]) > totalMs(lost[b]); });
    for (const uint32_t id : order) {
        const Connection& connection = connections[id];
        const int64_t lifeNs = connection.lastTsNs - connection.firstTsNs;
        std::vector<std::string> row = {fmt::format("#{}", id), connection.client.toString(),
                                        connection.server.toString(), humanDuration(lifeNs)};
        for (const std::string& kind : kinds) {
            const auto found = lost[id].find(kind);
            row.push_back(found == lost[id].end() ? "" : msText(found->second));
        }
        const double total = totalMs(lost[id]);
        row.push_back(msText(total));
        row.push_back(lifeNs > 0 ? fmt::format("{:.0f}%", 100 * total / (static_cast<double>(lifeNs) / 1e6)) : "");
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::vector<Block> reportBlocks(const CaptureAnalysis& analysis, const IncidentReportInput& input) {
    std::vector<Block> blocks = captureBlocks(analysis, input);
    if (!analysis.findings.empty()) {
        blocks.push_back({Block::Kind::Heading, 2, "Findings", {}, {}, {}});
        blocks.push_back(findingsTable(analysis));
        blocks.push_back({Block::Kind::Heading, 2, "Time lost per connection", {}, {}, {}});
        blocks.push_back(timeLostTable(analysis));
    }
    if (!input.timeline.file.empty()) {
        blocks.push_back({Block::Kind::Heading, 2, "Timeline", {}, {}, {}});
        blocks.push_back({Block::Kind::Image, 0, input.timeline.title, {}, input.timeline.file,
                          input.timeline.vectorFile});
    }
    const std::vector<ReportLadder> ladders = reportLadders(analysis);
    for (size_t index = 0; index < ladders.size(); ++index) {
        const ReportLadder& ladder = ladders[index];
        const SequenceDiagram diagram = ladderDiagram(analysis, ladder);
        blocks.push_back({Block::Kind::Heading, 2, fmt::format("Sequence diagram of {}", flowsText(ladder.flows)), {},
                          {}, {}});
        const LadderWindow window = ladderWindow(diagram, input.ladderArrows);
        blocks.push_back({Block::Kind::Paragraph, 0,
                          fmt::format("{} lost in {} stalls (brackets beside the side that waited). Drawn: packets {} "
                                      "to {} of {}, from just before the first stall.",
                                      msText(ladder.lostMs), diagram.stalls().size(), window.first + 1,
                                      window.first + window.count, diagram.arrows().size()),
                          {}, {}, {}});
        if (index < input.ladders.size() && !input.ladders[index].file.empty()) {
            blocks.push_back({Block::Kind::Image, 0, input.ladders[index].title, {}, input.ladders[index].file,
                              input.ladders[index].vectorFile});
        }
        MermaidOptions options;
        options.firstArrow = window.first;
        options.maxArrows = window.count;
        // The calls the picture draws beside the traced lifelines.
        std::vector<LadderSyscall> syscalls;
        if (input.alignment != nullptr) {
            syscalls = ladderSyscalls(*input.alignment, diagram);
            options.syscalls = &syscalls;
        }
        blocks.push_back({Block::Kind::Code, 0, mermaidSequence(diagram, options), {}, "mermaid", {}});
    }
    return blocks;
}

std::string markdownCell(const std::string& text) {
    std::string cell;
    for (const char c : text) {
        if (c == '|') {
            cell += "\\|";
        } else if (c == '\n' || c == '\r') {
            cell += ' ';
        } else {
            cell += c;
        }
    }
    return cell;
}

std::string htmlEscape(const std::string& text) {
    std::string escaped;
    for (const char c : text) {
        switch (c) {
            case '&': escaped += "&amp;"; break;
            case '<': escaped += "&lt;"; break;
            case '>': escaped += "&gt;"; break;
            case '"': escaped += "&quot;"; break;
            default: escaped += c;
        }
    }
    return escaped;
}

}  // namespace

std::vector<ReportLadder> reportLadders(const CaptureAnalysis& analysis, size_t maxLadders) {
    const auto& connections = analysis.engine->connections();
    std::map<uint32_t, ReportLadder> byFlow;
    for (const Finding& finding : analysis.findings) {
        if (finding.connection >= connections.size() || finding.durationMs <= 0) {
            continue;
        }
        ReportLadder& ladder = byFlow[finding.connection];
        ladder.flows = {finding.connection};
        ladder.findings.push_back(finding.id);
        ladder.lostMs += finding.durationMs;
    }
    std::vector<ReportLadder> flows;
    for (const auto& [flow, ladder] : byFlow) {
        flows.push_back(ladder);  // a copy: a proxy partner's findings are read from byFlow below
    }
    std::stable_sort(flows.begin(), flows.end(),
                     [](const ReportLadder& a, const ReportLadder& b) { return a.lostMs > b.lostMs; });
    // A flow of a proxy pair is drawn with its partner; the pair is drawn once.
    std::vector<ReportLadder> ladders;
    std::set<uint32_t> drawn;
    for (ReportLadder& ladder : flows) {
        if (ladders.size() >= maxLadders || drawn.contains(ladder.flows.front())) {
            continue;
        }
        if (const auto pair = findProxyPartner(connections, analysis.engine->packets(), ladder.flows.front())) {
            const uint32_t partner = pair->clientSide == ladder.flows.front() ? pair->serverSide : pair->clientSide;
            ladder.flows = {pair->clientSide, pair->serverSide};
            const auto other = byFlow.find(partner);
            if (other != byFlow.end()) {
                ladder.findings.insert(ladder.findings.end(), other->second.findings.begin(),
                                       other->second.findings.end());
                ladder.lostMs += other->second.lostMs;
            }
        }
        drawn.insert(ladder.flows.begin(), ladder.flows.end());
        ladders.push_back(std::move(ladder));
    }
    return ladders;
}

SequenceDiagram ladderDiagram(const CaptureAnalysis& analysis, const ReportLadder& ladder) {
    return ladder.flows.size() == 2 ? SequenceDiagram::ofProxy(analysis, ladder.flows[0], ladder.flows[1])
                                    : SequenceDiagram::ofConnection(analysis, ladder.flows.front());
}

LadderWindow ladderWindow(const SequenceDiagram& diagram, size_t maxArrows) {
    const size_t arrows = diagram.arrows().size();
    size_t first = 0;
    if (!diagram.stalls().empty()) {
        const size_t stallStart = diagram.stalls().front().startArrow;
        first = stallStart > kArrowsBeforeStall ? stallStart - kArrowsBeforeStall : 0;
    }
    first = std::min(first, arrows);
    return {first, std::min(maxArrows, arrows - first)};
}

void writeIncidentMarkdown(std::ostream& out, const CaptureAnalysis& analysis, const IncidentReportInput& input) {
    for (const Block& block : reportBlocks(analysis, input)) {
        switch (block.kind) {
            case Block::Kind::Heading: out << std::string(static_cast<size_t>(block.level), '#') << ' ' << block.text
                                           << "\n\n";
                break;
            case Block::Kind::Paragraph: out << block.text << "\n\n"; break;
            case Block::Kind::Table:
                for (size_t row = 0; row < block.rows.size(); ++row) {
                    out << '|';
                    for (const std::string& cell : block.rows[row]) {
                        out << ' ' << markdownCell(cell) << " |";
                    }
                    out << '\n';
                    if (row == 0) {
                        out << '|';
                        for (size_t column = 0; column < block.rows[row].size(); ++column) {
                            out << "---|";
                        }
                        out << '\n';
                    }
                }
                out << '\n';
                break;
            case Block::Kind::Image:
                out << "![" << markdownCell(block.text) << "](" << block.file << ")\n";
                if (!block.vectorFile.empty()) {
                    out << "\n[" << block.vectorFile << "](" << block.vectorFile << ") (vector)\n";
                }
                out << '\n';
                break;
            case Block::Kind::Code: out << "```" << block.file << '\n' << block.text << "```\n\n"; break;
        }
    }
}

void writeIncidentHtml(std::ostream& out, const CaptureAnalysis& analysis, const IncidentReportInput& input) {
    out << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
        << htmlEscape(fmt::format("Incident report: {}", input.captureName)) << "</title>\n"
        << "<style>body{font-family:sans-serif;max-width:1400px;margin:2em auto;}table{border-collapse:collapse;}"
           "td,th{border:1px solid #bbb;padding:3px 6px;vertical-align:top;}img{max-width:100%;}"
           "pre{background:#f3f4f6;padding:8px;overflow:auto;}</style></head><body>\n";
    for (const Block& block : reportBlocks(analysis, input)) {
        switch (block.kind) {
            case Block::Kind::Heading:
                out << fmt::format("<h{0}>{1}</h{0}>\n", block.level, htmlEscape(block.text));
                break;
            case Block::Kind::Paragraph: out << "<p>" << htmlEscape(block.text) << "</p>\n"; break;
            case Block::Kind::Table:
                out << "<table>\n";
                for (size_t row = 0; row < block.rows.size(); ++row) {
                    out << "<tr>";
                    for (const std::string& cell : block.rows[row]) {
                        out << (row == 0 ? "<th>" : "<td>") << htmlEscape(cell) << (row == 0 ? "</th>" : "</td>");
                    }
                    out << "</tr>\n";
                }
                out << "</table>\n";
                break;
            case Block::Kind::Image:
                out << "<p><img src=\"" << htmlEscape(block.file) << "\" alt=\"" << htmlEscape(block.text) << "\">";
                if (!block.vectorFile.empty()) {
                    out << "<br><a href=\"" << htmlEscape(block.vectorFile) << "\">" << htmlEscape(block.vectorFile)
                        << "</a> (vector)";
                }
                out << "</p>\n";
                break;
            case Block::Kind::Code:
                out << "<pre class=\"" << htmlEscape(block.file) << "\">" << htmlEscape(block.text) << "</pre>\n";
                break;
        }
    }
    out << "</body></html>\n";
}

}  // namespace tcpscope
