#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "finding/kind_info.hpp"
#include "incident/incident.hpp"
#include "present/sequence_diagram.hpp"
#include "report/finding_groups.hpp"
#include "report/report_blocks.hpp"
#include "tcp/proxy_pair.hpp"

namespace tcpscope {

/// Arrows [first, first + count) of a sequence diagram: the part an incident report draws.
struct SequenceWindow {
    size_t first = 0;
    size_t count = 0;
};

/// A connection (or a proxy pair) whose sequence diagram the report shows.
struct ReportSequence {
    std::vector<uint32_t> flows;  ///< one flow, or the client side and the server side of a proxy
};

/// One cause of an incident report: the findings of one kind between one client host and one
/// server endpoint (a FindingGroup), and what to draw for it.
struct ReportSection {
    FindingGroup group;
    SectionPicture picture = SectionPicture::None;  ///< its kind's (KindInfo::picture), or what the case allows
    ReportSequence sequence;               ///< Sequence: its worst connection, joined with its proxy partner
    std::optional<size_t> sameSequenceAs;  ///< Sequence: an earlier section that draws the same diagram
    /// PortPool: an earlier section of the same incident whose picture shows the same port pool (this
    /// one then draws none).
    std::optional<size_t> samePortPoolAs;
    WaitRange range;                       ///< Timeline, PortPool: the time of its findings, with a margin
    double wallMs = 0;                     ///< wall-clock time during which any of its findings waited
};

/// At most this many causes get a section of their own; the others are listed in one table.
inline constexpr size_t kMaxReportSections = 8;
/// At most this many rows in a section's table of affected connections.
inline constexpr size_t kMaxAffectedRows = 10;

/// The causes of `analysis`, most severe first, then by wall-clock impact, then by connection-time.
/// A cause drawn as a sequence diagram shows both sides of a proxy where it finds them; `sameHost`,
/// where capture points tell, makes a proxy's two addresses one host (findProxyPartner).
std::vector<ReportSection> reportSections(const CaptureAnalysis& analysis, const SameHost& sameHost = {});

/// The causes (sections) of each incident and those of none, as indices into the sections, in their order.
/// A cause belongs to the incident that holds its worst finding.
struct IncidentCauses {
    std::vector<std::vector<size_t>> ofIncident;  ///< parallel to the incidents
    std::vector<size_t> outside;
};
IncidentCauses causesOfIncidents(const CaptureAnalysis& analysis, const std::vector<ReportSection>& sections,
                                 const std::vector<Incident>& incidents);

/// reportSections(), with what the incidents share: a port pool drawn once per incident (the TIME_WAIT
/// churn beside the exhaustion it led to shows the same rows), the later sections pointing to it.
std::vector<ReportSection> reportSections(const CaptureAnalysis& analysis, const std::vector<Incident>& incidents,
                                          const SameHost& sameHost = {});

/// The report's plan, made once per report: its sections (each naming the picture it needs) and which
/// incident each belongs to. The pictures are drawn for it, and the Markdown, HTML and PDF written from it.
struct ReportPlan {
    std::vector<ReportSection> sections;
    IncidentCauses causes;
};
ReportPlan planReport(const CaptureAnalysis& analysis, const std::vector<Incident>& incidents,
                      const SameHost& sameHost = {});

/// The diagram of a report sequence diagram (two lifelines, or three for a proxy pair).
SequenceDiagram sectionDiagram(const CaptureAnalysis& analysis, const ReportSequence& sequence);

/// The arrows to draw of `diagram`: `maxArrows` from a few before the first stall (or from the start).
SequenceWindow sequenceWindow(const SequenceDiagram& diagram, size_t maxArrows);

/// The arrows a report's picture draws: those of sequenceWindow, but for a port reuse collision its
/// handshake only, from the first SYN to the first data after it.
SequenceWindow reportSequenceWindow(const SequenceDiagram& diagram, size_t maxArrows);

/// Who a cause is about: "127.0.0.1 -> 127.0.0.1:3307", "listener 127.0.0.1:9200", "client
/// 127.0.0.1" (a finding of no connection: what its facts or parties name), or "".
std::string causeEndpoints(const CaptureAnalysis& analysis, const FindingGroup& group);
/// "Nagle + delayed ACK, 127.0.0.1 -> 127.0.0.1:3307", "Listen backlog overflow, listener
/// 127.0.0.1:9200", "TIME_WAIT churn, client 127.0.0.1".
std::string sectionTitle(const CaptureAnalysis& analysis, const FindingGroup& group);
/// "39 requests delayed", "18 handshakes delayed", "1 pause of every new connection": the waits of a kind.
std::string waitsText(FindingKind kind, uint64_t waits);
/// "39 requests delayed on 1 connection, median 41.2 ms, p99 44.0 ms, worst 44.1 ms", or what a
/// cause of no waits amounts to.
std::string sectionImpactText(const CaptureAnalysis& analysis, const ReportSection& section);
/// The affected connections (or pauses) of a section, at most kMaxAffectedRows, the rest counted
/// in a last row; an empty table (no rows after the header) when it has none.
ReportBlock affectedTable(const CaptureAnalysis& analysis, const ReportSection& section);

}  // namespace tcpscope
