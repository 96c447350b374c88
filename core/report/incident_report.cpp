#include "report/incident_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "align/failed_connects.hpp"
#include "finding/kind_info.hpp"
#include "finding/wording.hpp"
#include "present/cut_short.hpp"
#include "present/value_format.hpp"
#include "report/incident_summary.hpp"
#include "report/incidents_text.hpp"
#include "report/mermaid_sequence.hpp"
#include "report/placement_text.hpp"
#include "report/points_blocks.hpp"
#include "text/valid_utf8.hpp"

namespace tcpscope {

namespace {

// At most this many findings in the closing table.
constexpr size_t kMaxFindingRows = 50;
// At most this many causes in the table of the causes beyond the sections (then a count): a capture
// of a million packets has thousands, and a table of thousands of rows is no report.
constexpr size_t kMaxOtherCauseRows = 30;
// At most this many incidents get a section of their own; the others are rows of a table.
constexpr size_t kMaxReportIncidents = 8;
// At most this many frames named per event of an incident.
constexpr size_t kMaxEventFrames = 5;

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
        capture += fmt::format(" System calls from {} ({}).", logs, tracedSocketsText(*input.alignment));
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
        blocks.push_back(paragraphBlock(
            "Picture.", fmt::format("the sequence diagram above, of {}, shows these stalls too.",
                                    flowsText(section.sequence.flows))));
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
    blocks.push_back(paragraphBlock("Picture.", fmt::format("the sequence diagram of {}: packets {} to {} of {}, {}",
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
    options.flags = FlagNaming::Words;  // a person reads the report
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

// The section number of the first cause drawn before `index` of its kind, whose cause and fix a later one
// refers to. `drawn`: the causes drawn as sections so far, by index, with their numbers.
std::optional<size_t> earlierSectionOf(const std::vector<ReportSection>& sections,
                                       const std::map<size_t, size_t>& drawn, size_t index) {
    for (const auto& [earlier, number] : drawn) {
        if (earlier < index && sections[earlier].group.kind == sections[index].group.kind) {
            return number;
        }
    }
    return std::nullopt;
}

// A cause's own paragraphs: where along the path its time went, its picture, its affected connections.
void causeBody(std::vector<ReportBlock>& blocks, const CaptureAnalysis& analysis, const IncidentReportInput& input,
               const ReportSection& section, size_t index) {
    const FindingGroup& group = section.group;
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
        blocks.push_back(paragraphBlock("Where.", where + "."));
    }
    if (section.picture == SectionPicture::Sequence) {
        sequenceBlocks(blocks, analysis, input, section, index);
    } else if (section.samePortPoolAs) {
        blocks.push_back(paragraphBlock("Picture.", "the picture of the ports and TIME_WAIT above shows this too."));
    } else if (section.picture != SectionPicture::None && index < input.sections.size() &&
               !input.sections[index].file.empty()) {
        blocks.push_back(image(input.sections[index]));
        if (!input.sections[index].note.empty()) {
            blocks.push_back(paragraphBlock("Picture.", input.sections[index].note));
        }
    }
    ReportBlock table = affectedTable(analysis, section);
    if (table.rows.size() > 1) {
        blocks.push_back(paragraphBlock("Affected.", ""));
        blocks.push_back(std::move(table));
    }
}

void mermaidOf(std::vector<ReportBlock>& blocks, const CaptureAnalysis& analysis, const IncidentReportInput& input,
               const ReportSection& section, size_t index) {
    if (section.picture == SectionPicture::Sequence && !section.sameSequenceAs) {
        mermaidBlock(blocks, analysis, input, section, index);
    }
}

// A cause of no incident, as a section of its own: its impact, cause, picture, affected connections, fix.
void causeSection(std::vector<ReportBlock>& blocks, const CaptureAnalysis& analysis, const IncidentReportInput& input,
                  const std::vector<ReportSection>& sections, std::map<size_t, size_t>& drawn, size_t index,
                  size_t number) {
    const ReportSection& section = sections[index];
    const FindingGroup& group = section.group;
    const std::optional<size_t> sameKind = earlierSectionOf(sections, drawn, index);
    const std::string asBefore = sameKind ? fmt::format("as in section {}.", *sameKind) : std::string();
    drawn.emplace(index, number);
    blocks.push_back(headingBlock(2, fmt::format("{}. {}", number, sectionTitle(analysis, group)),
                             fmt::format("cause-{}", index + 1)));
    blocks.push_back(paragraphBlock(
        "Impact.", fmt::format("{} ({}, {}).", sectionImpactText(analysis, section), severityName(group.severity),
                               plural(group.findings.size(), "finding", "findings"))));
    blocks.push_back(paragraphBlock("Cause.", sameKind ? asBefore : std::string(kindInfo(group.kind).cause)));
    causeBody(blocks, analysis, input, section, index);
    blocks.push_back(paragraphBlock("Fix.", sameKind ? asBefore : std::string(kindInfo(group.kind).fix)));
    mermaidOf(blocks, analysis, input, section, index);
}

// "connections closed first, ... (TIME_WAIT churn, 1 finding)."
std::string stepText(const ChainStep& step) {
    return fmt::format("{} ({}, {}).", step.what, findingKindTitle(step.kind),
                       plural(step.findings.size(), "finding", "findings"));
}

// "Cause: connections closed first, ... (TIME_WAIT churn, 1 finding).", one item per step.
std::vector<std::string> chainItems(const Incident& incident) {
    std::vector<std::string> items;
    for (const ChainStep& step : incident.chain) {
        items.push_back(fmt::format("{}: {}", step.role == ChainRole::Cause ? "Cause" : "Effect", stepText(step)));
    }
    return items;
}

ReportBlock eventsTable(const CaptureAnalysis& analysis, const Incident& incident) {
    ReportBlock table;
    table.kind = ReportBlock::Kind::Table;
    table.rows.push_back({"when (UTC)", "since the first packet", "what happened", "frames"});
    for (const IncidentEvent& event : incident.events) {
        std::string frames;
        for (size_t index = 0; index < event.frames.size() && index < kMaxEventFrames; ++index) {
            frames += (frames.empty() ? "" : ", ") + std::to_string(event.frames[index]);
        }
        if (event.frames.size() > kMaxEventFrames) {
            frames += ", ...";
        }
        table.rows.push_back({utcTimestamp(analysis.engine->timeOrigin(), event.tsNs),
                              fmt::format("+{:.3f} s", static_cast<double>(event.tsNs - analysis.engine->firstTsNs()) / 1e9),
                              event.what, frames});
    }
    return table;
}

// One incident: its impact in the user's terms, its chain, when its moments came, each cause's picture
// and affected connections, and the fix once.
void incidentSection(std::vector<ReportBlock>& blocks, const CaptureAnalysis& analysis, const IncidentReportInput& input,
                     const std::vector<ReportSection>& sections, const Incident& incident,
                     const std::vector<size_t>& causes, size_t number) {
    blocks.push_back(headingBlock(2, fmt::format("{}. {}", number, incident.title), fmt::format("incident-{}", number)));
    blocks.push_back(paragraphBlock("Impact.", fmt::format("{} ({}, {}).", impactLine(incident.impact),
                                                      severityName(incident.severity),
                                                      plural(incident.findings.size(), "finding", "findings"))));
    if (!incident.processes.empty() || !incident.hosts.empty()) {
        std::string who;
        for (const std::string& host : incident.hosts) {
            who += (who.empty() ? "" : ", ") + host;
        }
        for (const std::string& process : incident.processes) {
            who += (who.empty() ? "" : ", ") + process;
        }
        blocks.push_back(paragraphBlock("Involved.", who + "."));
    }
    if (incident.chain.size() > 1) {
        blocks.push_back(paragraphBlock("Chain of cause and effect.", ""));
        blocks.push_back(listBlock(chainItems(incident)));
    } else if (!incident.chain.empty()) {
        blocks.push_back(paragraphBlock("Cause.", stepText(incident.chain.front())));
    }
    if (!incident.events.empty()) {
        blocks.push_back(paragraphBlock("What happened when.", ""));
        blocks.push_back(eventsTable(analysis, incident));
    }
    if (!incident.caveats.empty()) {
        blocks.push_back(paragraphBlock(
            "Caveat.", fmt::format("the capture itself has trouble during this incident ({}, in the findings below); "
                                   "its figures may count less than happened.",
                                   plural(incident.caveats.size(), "capture quality finding",
                                          "capture quality findings"))));
    }
    for (const size_t index : causes) {
        const ReportSection& section = sections[index];
        if (causes.size() > 1) {
            // A cause of no wait of its own (the churn beside the exhaustion) says so nowhere: the
            // incident's impact above is what it cost.
            const std::string impact = sectionImpactText(analysis, section);
            blocks.push_back(headingBlock(3,
                                          impact == "nothing waited"
                                              ? sectionTitle(analysis, section.group)
                                              : fmt::format("{} ({})", sectionTitle(analysis, section.group), impact),
                                     fmt::format("cause-{}", index + 1)));
        }
        if (index < kMaxReportSections) {
            causeBody(blocks, analysis, input, section, index);
        }
    }
    if (!incident.fix.doThis.empty()) {
        blocks.push_back(paragraphBlock("Fix.", ""));
        blocks.push_back(listBlock(incident.fix.doThis));
    } else if (!incident.chain.empty()) {
        blocks.push_back(paragraphBlock("Fix.", std::string(kindInfo(incident.chain.front().kind).fix)));
    }
    if (!incident.fix.doesNotHelp.empty()) {
        blocks.push_back(paragraphBlock("Does not help.", ""));
        blocks.push_back(listBlock(incident.fix.doesNotHelp));
    }
    for (const size_t index : causes) {
        if (index < kMaxReportSections) {
            mermaidOf(blocks, analysis, input, sections[index], index);
        }
    }
}

ReportBlock otherCausesTable(const CaptureAnalysis& analysis, const std::vector<ReportSection>& sections,
                             const std::vector<size_t>& others) {
    ReportBlock table;
    table.kind = ReportBlock::Kind::Table;
    table.rows.push_back({"cause", "severity", "findings", "wall-clock"});
    const size_t shown = std::min(others.size(), kMaxOtherCauseRows);
    for (size_t row = 0; row < shown; ++row) {
        const ReportSection& section = sections[others[row]];
        table.rows.push_back({sectionTitle(analysis, section.group), std::string(severityName(section.group.severity)),
                              std::to_string(section.group.findings.size()), reportDuration(section.wallMs)});
    }
    if (shown < others.size()) {
        size_t findings = 0;
        for (size_t row = shown; row < others.size(); ++row) {
            findings += sections[others[row]].group.findings.size();
        }
        table.rows.push_back({fmt::format("and {} more {}", others.size() - shown,
                                          others.size() - shown == 1 ? "cause" : "causes"),
                              "", std::to_string(findings), ""});
    }
    return table;
}

ReportBlock otherIncidentsTable(const std::vector<Incident>& incidents, size_t from) {
    ReportBlock table;
    table.kind = ReportBlock::Kind::Table;
    table.rows.push_back({"incident", "severity", "findings", "impact"});
    const size_t shown = std::min(incidents.size(), from + kMaxOtherCauseRows);
    for (size_t index = from; index < shown; ++index) {
        const Incident& incident = incidents[index];
        table.rows.push_back({incident.title, std::string(severityName(incident.severity)),
                              std::to_string(incident.findings.size()), impactLine(incident.impact)});
    }
    if (shown < incidents.size()) {
        table.rows.push_back({fmt::format("and {} more", incidents.size() - shown), "", "", ""});
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
    blocks.push_back(headingBlock(1, fmt::format("Incident report: {}", input.captureName)));
    blocks.push_back(paragraphBlock("", captureText(analysis, input)));
    static const std::vector<Incident> kNoIncidents;
    const std::vector<Incident>& incidents = input.incidents != nullptr ? *input.incidents : kNoIncidents;
    std::optional<ReportPlan> ownPlan;
    const ReportPlan& plan = input.plan ? *input.plan : ownPlan.emplace(planReport(analysis, incidents));
    const std::vector<ReportSection>& sections = plan.sections;
    const IncidentCauses& causes = plan.causes;
    for (ReportBlock& block : incidentSummaryBlocks(analysis, sections, incidents, causes, input.alignment)) {
        blocks.push_back(std::move(block));
    }
    size_t number = 0;
    for (size_t index = 0; index < incidents.size() && index < kMaxReportIncidents; ++index) {
        incidentSection(blocks, analysis, input, sections, incidents[index], causes.ofIncident[index], ++number);
    }
    if (incidents.size() > kMaxReportIncidents) {
        blocks.push_back(headingBlock(2, "Other incidents"));
        blocks.push_back(otherIncidentsTable(incidents, kMaxReportIncidents));
    }
    std::vector<size_t> others;  // causes of no incident, beyond those drawn
    std::map<size_t, size_t> drawn;
    for (const size_t index : causes.outside) {
        if (index < kMaxReportSections) {
            causeSection(blocks, analysis, input, sections, drawn, index, ++number);
        } else {
            others.push_back(index);
        }
    }
    if (!others.empty()) {
        blocks.push_back(headingBlock(2, incidents.empty() ? "Other causes" : "Other causes outside the incidents"));
        blocks.push_back(otherCausesTable(analysis, sections, others));
    }
    if (input.points != nullptr && input.points->points.size() > 1) {
        for (ReportBlock& block : pointsReportBlocks(*input.points)) {
            blocks.push_back(std::move(block));
        }
    }
    if (!input.timeline.file.empty()) {
        blocks.push_back(headingBlock(2, "Timeline of the capture", "timeline"));
        blocks.push_back(image(input.timeline));
        if (!input.timeline.note.empty()) {
            blocks.push_back(paragraphBlock("Picture.", input.timeline.note));
        }
    }
    if (!analysis.findings.empty()) {
        blocks.push_back(headingBlock(2, "Findings", "findings"));
        blocks.push_back(paragraphBlock("",
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
