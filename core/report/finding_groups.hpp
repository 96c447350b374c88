#pragma once
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "tcp/chunked_list.hpp"

namespace tcpscope {

/// The findings of one cause between one client host and one server endpoint (or listener): a
/// brute force of 700 connections, or a job server's hundred stalled connections to one backend,
/// reads as one line. A finding that concerns no single connection (capture_quality, syn_flood,
/// a listener's syn_backlog_overflow...) is a group of its own.
struct FindingGroup {
    FindingKind kind = FindingKind::DelayedAckStall;
    Severity severity = Severity::Info;  // the most severe of its findings
    std::string client;                  // the client host ("" for a finding of no connection)
    std::string server;                  // the server endpoint ("" as above)
    std::vector<size_t> findings;        // indexes in CaptureAnalysis::findings, most time lost first
    double durationMs = 0;               // the findings' time lost added up (connection time, not wall clock)
    double wallMs = 0;                   // wall-clock time during which any of them waited (their union)
    uint32_t connections = 0;            // connections that waited, added up over the findings
    uint64_t delayedRequests = 0;        // their waits, added up
    double shortestMs = 0;               // of one finding
    double longestMs = 0;
};

/// Groups in chunks (in the spill file while one is on): W1 at 100 M packets has a group for
/// nearly each of its 830,000 findings, 120 MB of them.
using FindingGroups = ChunkedList<FindingGroup, 512>;

/// Wall-clock milliseconds during which at least one of `findings` (indexes in analysis.findings)
/// waited: the union of their waits.
double wallMsOf(const CaptureAnalysis& analysis, const std::vector<size_t>& findings);

/// The groups of `analysis.findings`, most severe first, then by time lost (as the findings are
/// listed), then in the order of their first finding.
FindingGroups groupFindings(const CaptureAnalysis& analysis);

}  // namespace tcpscope
