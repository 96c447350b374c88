#include "report/incident_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "finding/kind_info.hpp"
#include "finding/wording.hpp"
#include "present/cut_short.hpp"
#include "present/value_format.hpp"
#include "report/incident_summary.hpp"
#include "report/mermaid_sequence.hpp"
#include "report/placement_text.hpp"
#include "text/valid_utf8.hpp"

namespace tcpscope {

namespace {

// At most this many findings in the closing table.
constexpr size_t kMaxFindingRows = 50;
// At most this many causes in the table of the causes beyond the sections (then a count): a capture
// of a million packets has thousands, and a table of thousands of rows is no report.
constexpr size_t kMaxOtherCauseRows = 30;

ReportBlock heading(int level, std::string text, std::string anchor = {}) {
    ReportBlock block;
    block.kind = ReportBlock::Kind::Heading;
    block.level = level;
    block.text = std::move(text);
    block.label = std::move(anchor);
    return block;
}

ReportBlock paragraph(std::string label, std::string text) {
    ReportBlock block;
    block.kind = ReportBlock::Kind::Paragraph;
    block.label = std::move(label);
    block.text = std::move(text);
    return block;
}

ReportBlock image(const ReportImage& picture) {
    ReportBlock block;
    block.kind = ReportBlock::Kind::Image;
    block.text = picture.title;
    block.file = picture.file;
    block.vectorFile = picture.vectorFile;
    block.dataUri = picture.dataUri;
    return block;
}

std::string flowsText(const std::vector<uint32_t>& flows) {
    return flows.size() == 2 ? fmt::format("flows #{} and #{} (client, proxy, server)", flows[0], flows[1])
                             : fmt::format("flow #{}", flows.front());
}

std::string captureText(const CaptureAnalysis& analysis, const IncidentReportInput& input) {
    const AnalysisEngine& engine = *analysis.engine;
    std::string files;
    for (const InputSummary& file : analysis.inputs) {
        files += (files.empty() ? "" : ", ") + validUtf8(file.path);
    }
    std::string capture = fmt::format(
        "Capture {}: {} packets, {}, from {} to {} UTC ({}).", files, engine.packets().size(),
        plural(engine.connections().size(), "connection", "connections"),
        utcTimestamp(engine.timeOrigin(), engine.firstTsNs()), utcTimestamp(engine.timeOrigin(), engine.lastTsNs()),
        humanDuration(engine.lastTsNs() - engine.firstTsNs()));
    for (const InputSummary& file : analysis.inputs) {
        if (file.cutShort) {
            capture += " Cut short: " + cutShortText(file) + "; what happened after it is not in the file.";
        }
    }
    if (input.alignment != nullptr) {
        std::string logs;
        for (const AlignedLog& log : input.alignment->logs) {
            for (const std::string& file : log.files) {
                logs += (logs.empty() ? "" : ", ") + validUtf8(file);
            }
        }
        const auto tied = std::count_if(input.alignment->sockets.begin(), input.alignment->sockets.end(),
                                        [](const TracedSocket& s) { return s.connection != kNoConnection; });
        capture += fmt::format(" System calls from {} ({} tied to connections).", logs,
                               plural(static_cast<uint64_t>(tied), "socket", "sockets"));
    }
    return capture;
}

// The arrows a section's sequence diagram draws (its picture's, and so its Mermaid text's).
size_t sequenceArrowsOf(const IncidentReportInput& input, size_t index) {
    return index < input.sections.size() && input.sections[index].sequenceArrows > 0
               ? input.sections[index].sequenceArrows
               : input.sequenceArrows;
}

void sequenceBlocks(std::vector<ReportBlock>& blocks, const CaptureAnalysis& analysis, const IncidentReportInput& input,
                    const ReportSection& section, size_t index) {
    if (section.sameSequenceAs) {
        blocks.push_back(
            paragraph("Picture.", fmt::format("the sequence diagram of {} in section {} shows these stalls too.",
                                              flowsText(section.sequence.flows), *section.sameSequenceAs + 1)));
        return;
    }
    const SequenceDiagram diagram = sectionDiagram(analysis, section.sequence);
    const SequenceWindow window = reportSequenceWindow(diagram, sequenceArrowsOf(input, index));
    if (index < input.sections.size() && !input.sections[index].file.empty()) {
        blocks.push_back(image(input.sections[index]));
    }
    const bool handshake = !diagram.stalls().empty() && diagram.stalls().front().kind == FindingKind::PortReuse;
    const char* extent = handshake ? "its handshake, from the first SYN to the first data; the bracket beside the "
                                     "client that waited."
                                   : "from just before the first stall; brackets beside the side that waited.";
    blocks.push_back(paragraph("Picture.", fmt::format("the sequence diagram of {}: packets {} to {} of {}, {}",
                                                       flowsText(section.sequence.flows), window.first + 1,
                                                       window.first + window.count, diagram.arrows().size(), extent)));
}

void mermaidBlock(std::vector<ReportBlock>& blocks, const CaptureAnalysis& analysis, const IncidentReportInput& input,
                  const ReportSection& section, size_t index) {
    const SequenceDiagram diagram = sectionDiagram(analysis, section.sequence);
    const SequenceWindow window = reportSequenceWindow(diagram, sequenceArrowsOf(input, index));
    MermaidOptions options;
    options.firstArrow = window.first;
    options.maxArrows = window.count;
    std::vector<DiagramSyscall> syscalls;  // the calls the picture draws beside the traced lifelines
    if (input.alignment != nullptr) {
        syscalls = diagramSyscalls(*input.alignment, diagram);
        options.syscalls = &syscalls;
    }
    ReportBlock code;
    code.kind = ReportBlock::Kind::Code;
    code.text = mermaidSequence(diagram, options);
    code.file = "mermaid";
    blocks.push_back(std::move(code));
}

// The first section of `kind` before `index`, whose cause and fix a later one refers to.
std::optional<size_t> earlierSectionOf(const std::vector<ReportSection>& sections, size_t index) {
    for (size_t earlier = 0; earlier < index; ++earlier) {
        if (sections[earlier].group.kind == sections[index].group.kind) {
            return earlier;
        }
    }
    return std::nullopt;
}

void sectionBlocks(std::vector<ReportBlock>& blocks, const CaptureAnalysis& analysis, const IncidentReportInput& input,
                   const std::vector<ReportSection>& sections, size_t index) {
    const ReportSection& section = sections[index];
    const FindingGroup& group = section.group;
    const std::optional<size_t> sameKind = earlierSectionOf(sections, index);
    const std::string asBefore = sameKind ? fmt::format("as in section {}.", *sameKind + 1) : std::string();
    blocks.push_back(heading(2, fmt::format("{}. {}", index + 1, sectionTitle(analysis, group)),
                             fmt::format("cause-{}", index + 1)));
    blocks.push_back(paragraph(
        "Impact.", fmt::format("{} ({}, {}).", sectionImpactText(analysis, section), severityName(group.severity),
                               plural(group.findings.size(), "finding", "findings"))));
    blocks.push_back(paragraph("Cause.", sameKind ? asBefore : std::string(kindInfo(group.kind).cause)));
    // With several capture points: where along the path its stalls' time went, per finding.
    std::string where;
    for (const size_t finding : group.findings) {
        if (const std::optional<FindingPlacement>& placement =
                analysis.enrichments.of(analysis.findings[finding].id).placement;
            placement && !placement->spans.empty()) {
            where += fmt::format("{}flow {} {}", where.empty() ? "" : "; ", analysis.findings[finding].connection,
                                 placementText(*placement));
        }
    }
    if (!where.empty()) {
        blocks.push_back(paragraph("Where.", where + "."));
    }
    if (section.picture == SectionPicture::Sequence) {
        sequenceBlocks(blocks, analysis, input, section, index);
    } else if (section.picture != SectionPicture::None && index < input.sections.size() &&
               !input.sections[index].file.empty()) {
        blocks.push_back(image(input.sections[index]));
        if (!input.sections[index].note.empty()) {
            blocks.push_back(paragraph("Picture.", input.sections[index].note));
        }
    }
    ReportBlock table = affectedTable(analysis, section);
    if (table.rows.size() > 1) {
        blocks.push_back(paragraph("Affected.", ""));
        blocks.push_back(std::move(table));
    }
    blocks.push_back(paragraph("Fix.", sameKind ? asBefore : std::string(kindInfo(group.kind).fix)));
    if (section.picture == SectionPicture::Sequence && !section.sameSequenceAs) {
        mermaidBlock(blocks, analysis, input, section, index);
    }
}

ReportBlock otherCausesTable(const CaptureAnalysis& analysis, const std::vector<ReportSection>& sections) {
    ReportBlock table;
    table.kind = ReportBlock::Kind::Table;
    table.rows.push_back({"cause", "severity", "findings", "wall-clock"});
    const size_t shown = std::min(sections.size(), kMaxReportSections + kMaxOtherCauseRows);
    for (size_t index = kMaxReportSections; index < shown; ++index) {
        const ReportSection& section = sections[index];
        table.rows.push_back({sectionTitle(analysis, section.group), std::string(severityName(section.group.severity)),
                              std::to_string(section.group.findings.size()), reportDuration(section.wallMs)});
    }
    if (shown < sections.size()) {
        size_t findings = 0;
        for (size_t index = shown; index < sections.size(); ++index) {
            findings += sections[index].group.findings.size();
        }
        table.rows.push_back({fmt::format("and {} more {}", sections.size() - shown, sections.size() - shown == 1 ? "cause" : "causes"), "",
                              std::to_string(findings), ""});
    }
    return table;
}

ReportBlock findingsTable(const CaptureAnalysis& analysis) {
    ReportBlock table;
    table.kind = ReportBlock::Kind::Table;
    table.rows.push_back({"#", "kind", "severity", "flow", "when (UTC)", "wall-clock", "waits"});
    for (size_t index = 0; index < analysis.findings.size() && index < kMaxFindingRows; ++index) {
        const Finding& finding = analysis.findings[index];
        table.rows.push_back({std::to_string(finding.id), std::string(findingKindTitle(finding.kind)),
                              std::string(severityName(finding.severity)),
                              finding.connection == kNoConnection ? "-" : fmt::format("#{}", finding.connection),
                              utcTimestamp(analysis.engine->timeOrigin(), finding.tsNs),
                              reportDuration(finding.impact.wallMs), std::to_string(finding.impact.delayedRequests)});
    }
    if (analysis.findings.size() > kMaxFindingRows) {
        table.rows.push_back(
            {fmt::format("and {} more", analysis.findings.size() - kMaxFindingRows), "", "", "", "", "", ""});
    }
    return table;
}

std::vector<ReportBlock> reportBlocks(const CaptureAnalysis& analysis, const IncidentReportInput& input) {
    std::vector<ReportBlock> blocks;
    blocks.push_back(heading(1, fmt::format("Incident report: {}", input.captureName)));
    blocks.push_back(paragraph("", captureText(analysis, input)));
    const std::vector<ReportSection> sections = reportSections(analysis);
    for (ReportBlock& block : incidentSummaryBlocks(analysis, sections, input.alignment)) {
        blocks.push_back(std::move(block));
    }
    for (size_t index = 0; index < sections.size() && index < kMaxReportSections; ++index) {
        sectionBlocks(blocks, analysis, input, sections, index);
    }
    if (sections.size() > kMaxReportSections) {
        blocks.push_back(heading(2, "Other causes"));
        blocks.push_back(otherCausesTable(analysis, sections));
    }
    if (!input.timeline.file.empty()) {
        blocks.push_back(heading(2, "Timeline of the capture", "timeline"));
        blocks.push_back(image(input.timeline));
        if (!input.timeline.note.empty()) {
            blocks.push_back(paragraph("Picture.", input.timeline.note));
        }
    }
    if (!analysis.findings.empty()) {
        blocks.push_back(heading(2, "Findings", "findings"));
        blocks.push_back(paragraph("",
                                   "Each finding's own sentence, evidence and frames: tcpscope-cli analyze "
                                   "(--format json)."));
        blocks.push_back(findingsTable(analysis));
    }
    return blocks;
}

}  // namespace

void writeIncidentMarkdown(std::ostream& out, const CaptureAnalysis& analysis, const IncidentReportInput& input) {
    writeMarkdownBlocks(out, reportBlocks(analysis, input));
}

void writeIncidentHtml(std::ostream& out, const CaptureAnalysis& analysis, const IncidentReportInput& input,
                       const HtmlReportOptions& options) {
    writeHtmlBlocks(out, fmt::format("Incident report: {}", input.captureName), reportBlocks(analysis, input), options);
}

}  // namespace tcpscope
