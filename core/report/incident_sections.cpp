#include "report/incident_sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <variant>

#include "finding/wording.hpp"
#include "present/value_format.hpp"
#include "tcp/proxy_pair.hpp"

namespace tcpscope {

namespace {

constexpr size_t kArrowsBeforeStall = 4;
constexpr size_t kArrowsAfterHandshake = 4;  // a collision's picture: to the first data, at most this far

// A group of port reuse collisions (handshakes that waited), not of reuses the server accepted.
bool isCollision(const CaptureAnalysis& analysis, const FindingGroup& group) {
    if (group.kind != FindingKind::PortReuse || group.findings.empty()) {
        return false;
    }
    const Finding& worst = analysis.findings[group.findings.front()];
    return worst.durationMs > 0 && worst.spans.size() == 1 && worst.spans.front().connection == worst.connection;
}

// The time of a group's findings (their waits and spans, or their duration), with a margin, inside
// the capture; the whole capture when they say nothing of time.
WaitRange sectionRange(const CaptureAnalysis& analysis, const FindingGroup& group) {
    const WaitRange capture{analysis.engine->firstTsNs(), analysis.engine->lastTsNs()};
    int64_t startNs = INT64_MAX;
    int64_t endNs = INT64_MIN;
    const auto cover = [&](int64_t from, int64_t to) {
        startNs = std::min(startNs, from);
        endNs = std::max(endNs, to);
    };
    for (const size_t index : group.findings) {
        const Finding& finding = analysis.findings[index];
        for (const WaitRange& wait : finding.waitRanges) {
            cover(wait.startNs, wait.endNs);
        }
        for (const FindingSpan& span : finding.spans) {
            cover(span.startNs, span.endNs);
        }
        cover(finding.tsNs, finding.tsNs + static_cast<int64_t>(finding.durationMs * 1e6));
    }
    if (startNs >= endNs) {
        return capture;
    }
    const int64_t marginNs = std::max<int64_t>((endNs - startNs) / 20, 20'000'000);
    return {std::max(capture.startNs, startNs - marginNs), std::min(capture.endNs, endNs + marginNs)};
}

ReportSequence sequenceOf(const CaptureAnalysis& analysis, uint32_t connection, const SameHost& sameHost) {
    const auto pair =
        findProxyPartner(analysis.engine->connections(), analysis.engine->packets(), connection, sameHost);
    return pair ? ReportSequence{{pair->clientSide, pair->serverSide}} : ReportSequence{{connection}};
}

bool knownConnection(const CaptureAnalysis& analysis, uint32_t connection) {
    const auto& connections = analysis.engine->connections();
    return connection != kNoConnection && connection < connections.size() && connections.holds(connection);
}

// The textual form of an optional address or endpoint, "" when there is none.
template <typename Address>
std::string textOf(const std::optional<Address>& address) {
    return address ? address->toString() : std::string();
}

// What a finding of no waits amounts to, from its typed facts.
std::string noWaitText(const Finding& finding) {
    switch (finding.kind) {
        case FindingKind::TimeWaitChurn:
            if (const auto* churn = std::get_if<ChurnFacts>(&finding.facts)) {
                return fmt::format(
                    "{} closed {} first, up to {} in TIME_WAIT at once; nothing waited yet, but each entry "
                    "holds a port",
                    churn->host.toString(), groupedPlural(churn->activeCloses, "connection", "connections"),
                    groupedDigits(churn->peakTimeWait));
            }
            break;
        case FindingKind::PortReuse: {
            const auto* accepted = std::get_if<AcceptedReuseFacts>(&finding.facts);
            return fmt::format(
                "{} reused a 4-tuple still in TIME_WAIT and the server accepted them; nothing waited, "
                "but it is fragile",
                groupedPlural(accepted != nullptr ? accepted->reuses : 1, "connection", "connections"));
        }
        case FindingKind::SynFlood:
        case FindingKind::PortScan:
            if (const auto* attempts = std::get_if<AttemptFacts>(&finding.facts)) {
                return fmt::format("{}; nothing waited",
                                   plural(attempts->attempts, "connection attempt", "connection attempts"));
            }
            break;
        case FindingKind::DelayedAckStall:
        case FindingKind::RetransmissionStall:
        case FindingKind::ZeroWindowStall:
        case FindingKind::SynBacklogOverflow:
        case FindingKind::PortExhaustion:
        case FindingKind::SynUnanswered:
        case FindingKind::CaptureQuality:
        case FindingKind::PathMtu: break;
    }
    return "nothing waited";
}

// One row of the affected connections: a connection's waits, or a wait of no connection (a pause).
struct AffectedRow {
    uint32_t connection = kNoConnection;
    uint64_t waits = 0;
    double waitedMs = 0;
    double worstMs = 0;
    int64_t firstNs = 0;
};

std::vector<AffectedRow> affectedRows(const CaptureAnalysis& analysis, const FindingGroup& group, bool& truncated) {
    std::vector<AffectedRow> rows;
    std::map<uint32_t, size_t> rowOf;
    for (const size_t index : group.findings) {
        const Finding& finding = analysis.findings[index];
        if (knownConnection(analysis, finding.connection)) {
            // A finding of one connection: its impact counts every wait, not only the listed spans.
            rows.push_back({finding.connection, finding.impact.delayedRequests, finding.impact.wallMs,
                            finding.impact.maxMs, finding.tsNs});
            continue;
        }
        truncated = truncated || finding.totalSpans > finding.spans.size();
        for (const FindingSpan& span : finding.spans) {
            const double lengthMs = static_cast<double>(span.endNs - span.startNs) / 1e6;
            if (!knownConnection(analysis, span.connection)) {
                rows.push_back({kNoConnection, 1, lengthMs, lengthMs, span.startNs});
                continue;
            }
            const auto [slot, added] = rowOf.try_emplace(span.connection, rows.size());
            if (added) {
                rows.push_back({span.connection, 0, 0, 0, span.startNs});
            }
            AffectedRow& row = rows[slot->second];
            row.waits += lengthMs > 0 ? 1 : 0;
            row.waitedMs += lengthMs;
            row.worstMs = std::max(row.worstMs, lengthMs);
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const AffectedRow& a, const AffectedRow& b) {
        return a.waitedMs != b.waitedMs ? a.waitedMs > b.waitedMs : a.firstNs < b.firstNs;
    });
    return rows;
}

}  // namespace

std::vector<ReportSection> reportSections(const CaptureAnalysis& analysis, const SameHost& sameHost) {
    std::vector<ReportSection> sections;
    for (FindingGroup& group : groupFindings(analysis)) {
        ReportSection& section = sections.emplace_back();
        section.wallMs = group.wallMs;
        section.picture = kindInfo(group.kind).picture;
        section.group = std::move(group);
    }
    std::stable_sort(sections.begin(), sections.end(), [](const ReportSection& a, const ReportSection& b) {
        if (a.group.severity != b.group.severity) {
            return a.group.severity < b.group.severity;
        }
        return a.wallMs != b.wallMs ? a.wallMs > b.wallMs : a.group.durationMs > b.group.durationMs;
    });
    for (size_t index = 0; index < sections.size(); ++index) {
        ReportSection& section = sections[index];
        section.range = sectionRange(analysis, section.group);
        if (isCollision(analysis, section.group)) {
            section.picture = SectionPicture::Sequence;  // the handshake of its worst connection
        }
        // Only the first kMaxReportSections sections are drawn (the rest are rows of a table): the
        // others get no sequence diagram, whose proxy partner is searched among every connection.
        if (section.picture != SectionPicture::Sequence || index >= kMaxReportSections) {
            continue;
        }
        const Finding& worst = analysis.findings[section.group.findings.front()];
        if (!knownConnection(analysis, worst.connection) || worst.durationMs <= 0) {
            section.picture = SectionPicture::None;
            continue;
        }
        section.sequence = sequenceOf(analysis, worst.connection, sameHost);
        for (size_t earlier = 0; earlier < index && earlier < kMaxReportSections; ++earlier) {
            if (sections[earlier].picture == SectionPicture::Sequence &&
                sections[earlier].sequence.flows == section.sequence.flows) {
                section.sameSequenceAs = earlier;
                break;
            }
        }
    }
    return sections;
}

IncidentCauses causesOfIncidents(const CaptureAnalysis& analysis, const std::vector<ReportSection>& sections,
                                 const std::vector<Incident>& incidents) {
    std::vector<size_t> incidentOf(analysis.findings.size(), incidents.size());
    for (size_t incident = 0; incident < incidents.size(); ++incident) {
        for (const uint32_t finding : incidents[incident].findings) {
            if (finding < incidentOf.size()) {
                incidentOf[finding] = incident;
            }
        }
    }
    IncidentCauses causes;
    causes.ofIncident.resize(incidents.size());
    for (size_t index = 0; index < sections.size(); ++index) {
        const std::vector<size_t>& findings = sections[index].group.findings;
        const size_t incident = findings.empty() ? incidents.size() : incidentOf[findings.front()];
        (incident < incidents.size() ? causes.ofIncident[incident] : causes.outside).push_back(index);
    }
    return causes;
}

std::vector<ReportSection> reportSections(const CaptureAnalysis& analysis, const std::vector<Incident>& incidents,
                                          const SameHost& sameHost) {
    std::vector<ReportSection> sections = reportSections(analysis, sameHost);
    for (const std::vector<size_t>& causes : causesOfIncidents(analysis, sections, incidents).ofIncident) {
        std::optional<size_t> drawn;
        for (const size_t index : causes) {
            ReportSection& section = sections[index];
            if (section.picture != SectionPicture::PortPool || index >= kMaxReportSections) {
                continue;
            }
            if (drawn) {
                section.picture = SectionPicture::None;
                section.samePortPoolAs = drawn;
            } else {
                drawn = index;
            }
        }
    }
    return sections;
}

SequenceDiagram sectionDiagram(const CaptureAnalysis& analysis, const ReportSequence& sequence) {
    return sequence.flows.size() == 2 ? SequenceDiagram::ofProxy(analysis, sequence.flows[0], sequence.flows[1])
                                      : SequenceDiagram::ofConnection(analysis, sequence.flows.front());
}

SequenceWindow sequenceWindow(const SequenceDiagram& diagram, size_t maxArrows) {
    const size_t arrows = diagram.arrows().size();
    size_t first = 0;
    if (!diagram.stalls().empty()) {
        const size_t stallStart = diagram.stalls().front().startArrow;
        first = stallStart > kArrowsBeforeStall ? stallStart - kArrowsBeforeStall : 0;
    }
    first = std::min(first, arrows);
    return {first, std::min(maxArrows, arrows - first)};
}

SequenceWindow reportSequenceWindow(const SequenceDiagram& diagram, size_t maxArrows) {
    SequenceWindow window = sequenceWindow(diagram, maxArrows);
    const auto& stalls = diagram.stalls();
    if (stalls.empty() || stalls.front().kind != FindingKind::PortReuse) {
        return window;
    }
    // A collision's story ends with the handshake: up to the first data after it, not the bulk data.
    const SequenceStall& collision = stalls.front();
    size_t last = collision.endArrow;
    const size_t arrows = diagram.arrows().size();
    while (last + 1 < arrows && last < collision.endArrow + kArrowsAfterHandshake) {
        ++last;
        if (diagram.packetOf(last).payloadLength > 0) {
            break;
        }
    }
    window.first = std::min(window.first, collision.startArrow);
    window.count = std::min(maxArrows, last + 1 - window.first);
    return window;
}

std::string causeEndpoints(const CaptureAnalysis& analysis, const FindingGroup& group) {
    if (!group.client.empty() || !group.server.empty()) {
        return fmt::format("{} -> {}", group.client, group.server);
    }
    const Finding& finding = analysis.findings[group.findings.front()];
    const auto* attempts = std::get_if<AttemptFacts>(&finding.facts);
    switch (finding.kind) {
        case FindingKind::SynBacklogOverflow:
            return finding.parties.server.empty() ? "" : "listener " + finding.parties.server;
        case FindingKind::PortExhaustion:
            return fmt::format("{} -> {}", finding.parties.client,
                               finding.server ? finding.server->toString() : finding.parties.server);
        case FindingKind::TimeWaitChurn:
            if (const auto* churn = std::get_if<ChurnFacts>(&finding.facts)) {
                return fmt::format("{} {}", sideName(churn->role), churn->host.toString());
            }
            break;
        case FindingKind::SynUnanswered:
        case FindingKind::SynFlood:
            if (attempts != nullptr) {
                return attempts->server ? "server " + attempts->server->toString() : textOf(attempts->source);
            }
            break;
        case FindingKind::PortScan:
            if (attempts != nullptr) {
                return attempts->source ? fmt::format("{} -> {}", attempts->source->toString(), textOf(attempts->target))
                                        : textOf(attempts->target);
            }
            break;
        // A finding of these kinds is about one connection (its group names it) or the whole capture.
        case FindingKind::DelayedAckStall:
        case FindingKind::RetransmissionStall:
        case FindingKind::ZeroWindowStall:
        case FindingKind::PortReuse:
        case FindingKind::CaptureQuality:
        case FindingKind::PathMtu: break;
    }
    return {};
}

std::string sectionTitle(const CaptureAnalysis& analysis, const FindingGroup& group) {
    const std::string endpoints = causeEndpoints(analysis, group);
    return endpoints.empty() ? std::string(findingKindTitle(group.kind))
                             : fmt::format("{}, {}", findingKindTitle(group.kind), endpoints);
}

std::string waitsText(FindingKind kind, uint64_t waits) {
    switch (kindInfo(kind).waits) {
        case WaitUnit::Request: return plural(waits, "request", "requests") + " delayed";
        case WaitUnit::Handshake: return plural(waits, "handshake", "handshakes") + " delayed";
        case WaitUnit::Pause: return plural(waits, "pause", "pauses") + " with no new connection";
        case WaitUnit::ConnectionAttempt:
            return plural(waits, "connection attempt", "connection attempts") + " unanswered";
    }
    return plural(waits, "wait", "waits");
}

std::string sectionImpactText(const CaptureAnalysis& analysis, const ReportSection& section) {
    const FindingGroup& group = section.group;
    if (group.delayedRequests == 0) {
        return noWaitText(analysis.findings[group.findings.front()]);
    }
    std::string text = waitsText(group.kind, group.delayedRequests);
    if (group.connections > 0) {
        text += " on " + plural(group.connections, "connection", "connections");
    }
    text += fmt::format(", during {} of wall-clock time", reportDuration(section.wallMs));
    double worstMs = 0;
    double lowestMedianMs = 1e300;
    double highestMedianMs = 0;
    for (const size_t index : group.findings) {
        const FindingImpact& impact = analysis.findings[index].impact;
        if (impact.delayedRequests == 0) {
            continue;
        }
        worstMs = std::max(worstMs, impact.maxMs);
        lowestMedianMs = std::min(lowestMedianMs, impact.p50Ms);
        highestMedianMs = std::max(highestMedianMs, impact.p50Ms);
    }
    if (group.findings.size() == 1) {
        const FindingImpact& impact = analysis.findings[group.findings.front()].impact;
        return text + fmt::format("; median {}, p99 {}, worst {}", reportDuration(impact.p50Ms),
                                  reportDuration(impact.p99Ms), reportDuration(impact.maxMs));
    }
    return text + fmt::format("; medians {} to {} per connection, worst {}", reportDuration(lowestMedianMs),
                              reportDuration(highestMedianMs), reportDuration(worstMs));
}

ReportBlock affectedTable(const CaptureAnalysis& analysis, const ReportSection& section) {
    ReportBlock table;
    table.kind = ReportBlock::Kind::Table;
    table.rows.push_back({"flow", "client", "server", "waits", "waited", "worst", "first (UTC)"});
    bool truncated = false;
    const std::vector<AffectedRow> rows = affectedRows(analysis, section.group, truncated);
    const auto& connections = analysis.engine->connections();
    // A wait of no connection (a pause of a port pool) is between the cause's client and server.
    const std::string endpoints = causeEndpoints(analysis, section.group);
    const size_t arrow = endpoints.find(" -> ");
    const std::string causeClient = arrow == std::string::npos ? endpoints : endpoints.substr(0, arrow);
    const std::string causeServer = arrow == std::string::npos ? std::string() : endpoints.substr(arrow + 4);
    for (size_t index = 0; index < rows.size() && index < kMaxAffectedRows; ++index) {
        const AffectedRow& row = rows[index];
        const bool known = row.connection != kNoConnection;
        table.rows.push_back({known ? fmt::format("#{}", row.connection) : "pause",
                              known ? connections[row.connection].client.toString() : causeClient,
                              known ? connections[row.connection].server.toString() : causeServer,
                              std::to_string(row.waits), reportDuration(row.waitedMs), reportDuration(row.worstMs),
                              utcTimestamp(analysis.engine->timeOrigin(), row.firstNs)});
    }
    if (rows.size() > kMaxAffectedRows || truncated) {
        uint64_t waits = 0;
        for (size_t index = kMaxAffectedRows; index < rows.size(); ++index) {
            waits += rows[index].waits;
        }
        const std::string more =
            rows.size() > kMaxAffectedRows
                ? fmt::format("and {} more ({})", rows.size() - kMaxAffectedRows, plural(waits, "wait", "waits"))
                : std::string("and more");
        table.rows.push_back({more, truncated ? "the detector listed only the first" : "", "", "", "", "", ""});
    }
    return table;
}

ReportPlan planReport(const CaptureAnalysis& analysis, const std::vector<Incident>& incidents,
                      const SameHost& sameHost) {
    ReportPlan plan;
    plan.sections = reportSections(analysis, incidents, sameHost);
    plan.causes = causesOfIncidents(analysis, plan.sections, incidents);
    return plan;
}

}  // namespace tcpscope
