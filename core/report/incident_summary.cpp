#include "report/incident_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "finding/kind_info.hpp"
#include "finding/wording.hpp"
#include "present/value_format.hpp"
#include "report/finding_groups.hpp"
#include "report/incidents_text.hpp"

namespace tcpscope {

namespace {

constexpr size_t kEvidenceLines = 3;

// "03:28:52.953 UTC (+0.021 s)": the time of day and the time since the capture's first packet.
std::string whenText(const CaptureAnalysis& analysis, int64_t tsNs) {
    const std::string utc = utcTimestamp(analysis.engine->timeOrigin(), tsNs);
    const size_t space = utc.find(' ');
    return fmt::format("{} UTC (+{:.3f} s)", space == std::string::npos ? utc : utc.substr(space + 1, 12),
                       static_cast<double>(tsNs - analysis.engine->firstTsNs()) / 1e9);
}

std::string framesText(const SpanFrames& frames) {
    std::string text;
    size_t index = 0;
    for (const uint32_t frame : frames) {
        text += (index == 0 ? "" : index + 1 == frames.size() ? " and " : ", ") + std::to_string(frame);
        ++index;
    }
    return (frames.size() == 1 ? "frame " : "frames ") + text;
}

// What the frames of a kind's spans are, where its row names them: " (the small segment, the late ACK, ...)".
std::string frameRoles(FindingKind kind) {
    const FrameRoles& roles = kindInfo(kind).frames;
    if (!roles.named || roles.empty()) {
        return "";
    }
    std::string words;
    for (const FrameRole role : roles) {
        words += (words.empty() ? "" : ", ") + std::string(frameRoleWords(role));
    }
    return " (" + words + ")";
}

// The first wait of a section (the longest for a listener's handshakes, which all start together).
std::optional<std::string> waitEvidence(const CaptureAnalysis& analysis, const ReportSection& section) {
    const FindingSpan* chosen = nullptr;
    for (const size_t index : section.group.findings) {
        for (const FindingSpan& span : analysis.findings[index].spans) {
            if (span.endNs <= span.startNs || span.frames.empty()) {
                continue;
            }
            const bool better = section.group.kind == FindingKind::SynBacklogOverflow
                                    ? chosen == nullptr || span.endNs - span.startNs > chosen->endNs - chosen->startNs
                                    : chosen == nullptr || span.startNs < chosen->startNs;
            chosen = better ? &span : chosen;
        }
    }
    if (chosen == nullptr) {
        return std::nullopt;
    }
    const bool longest = section.group.kind == FindingKind::SynBacklogOverflow;
    const std::string where = chosen->connection == kNoConnection ? causeEndpoints(analysis, section.group)
                                                                  : fmt::format("flow #{}", chosen->connection);
    return fmt::format("{} wait ({}), {}: {}{}, from {} for {}.", longest ? "Longest" : "First",
                       findingKindTitle(section.group.kind), where, framesText(chosen->frames),
                       frameRoles(section.group.kind), whenText(analysis, chosen->startNs),
                       reportDuration(static_cast<double>(chosen->endNs - chosen->startNs) / 1e6));
}

std::string logName(const StraceAlignment* alignment) {
    if (alignment == nullptr || alignment->logs.empty() || alignment->logs.front().files.empty()) {
        return "the strace log";
    }
    const std::string& path = alignment->logs.front().files.front();
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The trace's word on the stalls: the first confirmed held write, or the failed connect() calls.
std::vector<std::string> straceEvidence(const CaptureAnalysis& analysis, const StraceAlignment* alignment) {
    std::vector<std::string> lines;
    size_t confirmed = 0;
    size_t judged = 0;
    const StraceVerdict* first = nullptr;
    for (const Finding& finding : analysis.findings) {
        const FindingEnrichment& enrichment = analysis.enrichments.of(finding.id);
        for (const StraceVerdict& verdict : enrichment.straceVerdicts) {
            judged += verdict.verdict == StraceVerdictKind::NoTrace ? 0 : 1;
            if (verdict.verdict == StraceVerdictKind::Confirmed) {
                ++confirmed;
                if (first == nullptr || verdict.heldWrite.tsNs < first->heldWrite.tsNs) {
                    first = &verdict;
                }
            }
        }
        if (enrichment.failedConnects && enrichment.failedConnects->count > 0) {
            const FailedConnects& failed = *enrichment.failedConnects;
            lines.push_back(fmt::format("strace: {} failed with EADDRNOTAVAIL (no free local port), from {} to {}.",
                                        groupedPlural(failed.count, "connect() call", "connect() calls"),
                                        whenText(analysis, failed.firstTsNs), whenText(analysis, failed.lastTsNs)));
        }
    }
    if (first != nullptr) {
        lines.push_back(fmt::format(
            "strace confirms {} of {} traced stalls. The first: {}() of {} bytes on fd {} (pid {}, line {} of {}) at "
            "{}; the kernel held the bytes {} before they left; TCP_NODELAY {}{}.",
            confirmed, judged, first->heldWrite.name, first->heldWrite.bytes, first->fd, first->pid,
            first->heldWrite.line, logName(alignment), whenText(analysis, first->heldWrite.tsNs),
            reportDuration(first->kernelHoldMs), first->nodelaySet ? "was set" : "was never set",
            first->pattern.empty() ? "" : fmt::format("; calls: {}", first->pattern)));
    }
    return lines;
}

std::string impactText(const CaptureAnalysis& analysis, const std::vector<ReportSection>& sections) {
    const AnalysisEngine& engine = *analysis.engine;
    const double captureMs = static_cast<double>(engine.lastTsNs() - engine.firstTsNs()) / 1e6;
    std::vector<size_t> all(analysis.findings.size());
    double connectionMs = 0;
    double worstMs = 0;
    for (size_t index = 0; index < all.size(); ++index) {
        all[index] = index;
        connectionMs += analysis.findings[index].impact.connectionMs;
        worstMs = std::max(worstMs, analysis.findings[index].impact.maxMs);
    }
    std::map<std::string, std::pair<FindingKind, uint64_t>> waitsByNoun;  // "requests delayed" -> waits
    for (const ReportSection& section : sections) {
        if (section.group.delayedRequests > 0) {
            const std::string noun = waitsText(section.group.kind, 2).substr(2);
            waitsByNoun.try_emplace(noun, section.group.kind, 0).first->second.second += section.group.delayedRequests;
        }
    }
    if (waitsByNoun.empty()) {
        return fmt::format("Nothing waited: none of the {} held up a connection during the capture's {}.",
                           plural(analysis.findings.size(), "finding", "findings"), reportDuration(captureMs));
    }
    const double wallMs = wallMsOf(analysis, all);
    std::string waits;
    for (const auto& [noun, kindAndWaits] : waitsByNoun) {
        waits += (waits.empty() ? "" : ", ") + waitsText(kindAndWaits.first, kindAndWaits.second);
    }
    return fmt::format(
        "Something waited during {} of the capture's {} ({:.0f}%): {}; the longest wait lasted {}. "
        "Added up over connections that is {} of connection-time.",
        reportDuration(wallMs), reportDuration(captureMs), captureMs > 0 ? 100 * wallMs / captureMs : 0.0, waits,
        reportDuration(worstMs), reportDuration(connectionMs));
}


// The evidence lines: the waits given, then the strace log's word, at most kEvidenceLines.
void appendEvidence(std::vector<ReportBlock>& blocks, const CaptureAnalysis& analysis,
                    const StraceAlignment* alignment, std::vector<std::string> evidence) {
    for (std::string& line : straceEvidence(analysis, alignment)) {
        if (evidence.size() < kEvidenceLines) {
            evidence.push_back(std::move(line));
        }
    }
    if (!evidence.empty()) {
        blocks.push_back(paragraphBlock("Evidence.", ""));
        blocks.push_back(listBlock(std::move(evidence)));
    }
}

// What happened as incidents: each named with its impact in the user's terms, the first one's chain
// and fix, and the causes that are part of no incident counted.
void incidentsSummary(std::vector<ReportBlock>& blocks, const std::vector<ReportSection>& sections, const std::vector<Incident>& incidents,
                      const IncidentCauses& causes) {
    const Incident& first = incidents.front();
    if (incidents.size() == 1) {
        blocks.push_back(paragraphBlock("What happened.", fmt::format("{} ({}): {}.", first.title,
                                                                 severityName(first.severity),
                                                                 impactLine(first.impact))));
    } else {
        const size_t named = std::min(incidents.size(), kSummaryCauses);
        std::vector<std::string> lines;
        for (size_t index = 0; index < named; ++index) {
            lines.push_back(fmt::format("{} ({}): {}.", incidents[index].title, severityName(incidents[index].severity),
                                        impactLine(incidents[index].impact)));
        }
        if (incidents.size() > named) {
            lines.push_back(fmt::format("and {} more, below.", plural(incidents.size() - named, "incident", "incidents")));
        }
        blocks.push_back(paragraphBlock("What happened.", fmt::format("{}:", plural(incidents.size(), "incident", "incidents"))));
        blocks.push_back(listBlock(std::move(lines)));
    }
    if (!causes.outside.empty()) {
        size_t findings = 0;
        for (const size_t index : causes.outside) {
            findings += sections[index].group.findings.size();
        }
        blocks.push_back(paragraphBlock("Besides.", fmt::format("{} ({}) outside the incidents, below.",
                                                           plural(causes.outside.size(), "cause", "causes"),
                                                           plural(findings, "finding", "findings"))));
    }
    std::string chain;
    for (const ChainStep& step : first.chain) {
        chain += (chain.empty() ? "" : " -> ") + step.what;
    }
    if (!chain.empty()) {
        blocks.push_back(paragraphBlock(incidents.size() == 1 ? "Why." : "Why (the first).", chain + "."));
    }
    if (!first.fix.doThis.empty()) {
        blocks.push_back(paragraphBlock(incidents.size() == 1 ? "Fix." : "Fix (the first).", ""));
        blocks.push_back(listBlock(first.fix.doThis));
    }
}

}  // namespace

std::vector<ReportBlock> incidentSummaryBlocks(const CaptureAnalysis& analysis,
                                               const std::vector<ReportSection>& sections,
                                               const std::vector<Incident>& incidents,
                                               const IncidentCauses& incidentCauses, const StraceAlignment* alignment) {
    std::vector<ReportBlock> blocks;
    ReportBlock heading;
    heading.kind = ReportBlock::Kind::Heading;
    heading.text = "Summary";
    heading.label = "summary";
    blocks.push_back(heading);
    if (sections.empty()) {
        blocks.push_back(paragraphBlock("What happened.",
                                   "No findings: nothing in this capture cost time that tcpscope "
                                   "can explain."));
        return blocks;
    }
    if (!incidents.empty()) {
        incidentsSummary(blocks, sections, incidents, incidentCauses);
        std::vector<std::string> evidence;
        const std::vector<size_t>& lead = incidentCauses.ofIncident.front().empty() ? incidentCauses.outside
                                                                                    : incidentCauses.ofIncident.front();
        for (size_t index = 0; index < lead.size() && evidence.size() < kEvidenceLines - 1; ++index) {
            if (const auto line = waitEvidence(analysis, sections[lead[index]])) {
                evidence.push_back(*line);
            }
        }
        appendEvidence(blocks, analysis, alignment, std::move(evidence));
        return blocks;
    }
    const size_t named = std::min(sections.size(), kSummaryCauses);
    std::vector<std::string> causes;
    for (size_t index = 0; index < named; ++index) {
        const ReportSection& section = sections[index];
        causes.push_back(fmt::format("{} ({}): {}.", sectionTitle(analysis, section.group),
                                     severityName(section.group.severity), sectionImpactText(analysis, section)));
    }
    if (sections.size() > named) {
        causes.push_back(fmt::format("and {} more {}, below.", sections.size() - named,
                                             sections.size() - named == 1 ? "cause" : "causes"));
    }
    blocks.push_back(paragraphBlock("What happened.", fmt::format("{} in {}:", plural(sections.size(), "cause", "causes"),
                                                             plural(analysis.findings.size(), "finding", "findings"))));
    blocks.push_back(listBlock(std::move(causes)));
    blocks.push_back(paragraphBlock("Impact.", impactText(analysis, sections)));

    // The root cause and the fix once per kind among the causes named that are as severe as the
    // worst or made something wait (TIME_WAIT churn beside the port exhaustion it led to is its
    // section's business).
    std::vector<FindingKind> kinds;
    for (size_t index = 0; index < named; ++index) {
        const FindingGroup& group = sections[index].group;
        const bool leading = group.severity == sections.front().group.severity || group.delayedRequests > 0;
        if (leading && std::find(kinds.begin(), kinds.end(), group.kind) == kinds.end()) {
            kinds.push_back(sections[index].group.kind);
        }
    }
    if (kinds.size() == 1) {
        blocks.push_back(paragraphBlock("Root cause.", std::string(kindInfo(kinds.front()).cause)));
        blocks.push_back(paragraphBlock("Fix.", std::string(kindInfo(kinds.front()).fix)));
    } else {
        std::vector<std::string> causeLines;
        std::vector<std::string> fixLines;
        for (const FindingKind kind : kinds) {
            causeLines.push_back(fmt::format("{}: {}", findingKindTitle(kind), kindInfo(kind).cause));
            fixLines.push_back(fmt::format("{}: {}", findingKindTitle(kind), kindInfo(kind).fix));
        }
        blocks.push_back(paragraphBlock("Root cause.", ""));
        blocks.push_back(listBlock(std::move(causeLines)));
        blocks.push_back(paragraphBlock("Fix.", ""));
        blocks.push_back(listBlock(std::move(fixLines)));
    }

    std::vector<std::string> evidence;
    for (size_t index = 0; index < named && evidence.size() < kEvidenceLines - 1; ++index) {
        if (const auto line = waitEvidence(analysis, sections[index])) {
            evidence.push_back(*line);
        }
    }
    appendEvidence(blocks, analysis, alignment, std::move(evidence));
    return blocks;
}

}  // namespace tcpscope
