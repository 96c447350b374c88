#include "report/finding_groups.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace tcpscope {

double wallMsOf(const CaptureAnalysis& analysis, const std::vector<size_t>& findings) {
    std::vector<WaitRange> ranges;
    for (const size_t index : findings) {
        const std::vector<WaitRange>& waits = analysis.findings[index].waitRanges;
        ranges.insert(ranges.end(), waits.begin(), waits.end());
    }
    return std::round(static_cast<double>(coveredNs(mergeRanges(std::move(ranges)))) / 1e3) / 1e3;
}

std::vector<FindingGroup> groupFindings(const CaptureAnalysis& analysis) {
    const auto& connections = analysis.engine->connections();
    std::vector<FindingGroup> groups;
    // (kind, client host, server endpoint) -> index in groups
    absl::flat_hash_map<std::tuple<FindingKind, IpAddress, Endpoint>, size_t> groupOf;
    for (size_t index = 0; index < analysis.findings.size(); ++index) {
        const Finding& finding = analysis.findings[index];
        // A finding whose flow the engine does not hold (a report of findings alone) stands alone.
        const bool known = finding.connection != kNoConnection && finding.connection < connections.size() &&
                           connections.holds(finding.connection);
        size_t slot = groups.size();
        if (known) {
            const Connection& connection = connections[finding.connection];
            slot = groupOf.try_emplace({finding.kind, connection.client.address, connection.server}, groups.size())
                       .first->second;
        }
        if (slot == groups.size()) {
            FindingGroup& group = groups.emplace_back();
            group.kind = finding.kind;
            group.severity = finding.severity;
            group.shortestMs = finding.durationMs;
            if (known) {
                const Connection& connection = connections[finding.connection];
                group.client = connection.client.address.toString();
                group.server = connection.server.toString();
            }
        }
        FindingGroup& group = groups[slot];
        group.findings.push_back(index);
        group.severity = std::min(group.severity, finding.severity);  // Error < Warning < Info
        group.durationMs += finding.durationMs;
        group.connections += finding.impact.connections;
        group.delayedRequests += finding.impact.delayedRequests;
        group.shortestMs = std::min(group.shortestMs, finding.durationMs);
        group.longestMs = std::max(group.longestMs, finding.durationMs);
    }
    const auto& findings = analysis.findings;
    for (FindingGroup& group : groups) {
        group.wallMs = wallMsOf(analysis, group.findings);
        std::stable_sort(group.findings.begin(), group.findings.end(),
                         [&findings](size_t a, size_t b) { return findings[a].durationMs > findings[b].durationMs; });
    }
    std::stable_sort(groups.begin(), groups.end(), [](const FindingGroup& a, const FindingGroup& b) {
        return a.severity != b.severity ? a.severity < b.severity : a.durationMs > b.durationMs;
    });
    return groups;
}

}  // namespace tcpscope
