#include "report/finding_groups.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <cmath>
#include <numeric>
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

namespace {

using GroupKey = std::tuple<FindingKind, IpAddress, Endpoint>;

// The connection of `finding` if the engine holds it; null for a finding of no flow, or one whose
// flow the engine does not hold (a report of findings alone): such a finding stands alone.
const Connection* heldConnection(const CaptureAnalysis& analysis, const Finding& finding) {
    const auto& connections = analysis.engine->connections();
    const bool held = finding.connection != kNoConnection && finding.connection < connections.size() &&
                      connections.holds(finding.connection);
    return held ? &connections[finding.connection] : nullptr;
}

// The group of each finding, numbered in the order of their first finding: a finding of a
// connection the engine holds joins the group of its (kind, client host, server endpoint); any
// other stands alone. `count` is set to the number of groups.
std::vector<uint32_t> groupNumbers(const CaptureAnalysis& analysis, size_t& count) {
    std::vector<uint32_t> numbers(analysis.findings.size());
    absl::flat_hash_map<GroupKey, uint32_t> numberOf;
    count = 0;
    for (size_t index = 0; index < analysis.findings.size(); ++index) {
        const Finding& finding = analysis.findings[index];
        uint32_t number = static_cast<uint32_t>(count);
        if (const Connection* connection = heldConnection(analysis, finding)) {
            number = numberOf.try_emplace({finding.kind, connection->client.address, connection->server}, number)
                         .first->second;
        }
        count += number == count ? 1 : 0;
        numbers[index] = number;
    }
    return numbers;
}

// Puts groups[order[i]] at position i, moving each group once, without a second array of groups.
void permute(FindingGroups& groups, std::vector<uint32_t>& order) {
    for (size_t start = 0; start < groups.size(); ++start) {
        if (order[start] == start) {
            continue;
        }
        FindingGroup held = std::move(groups[start]);
        size_t at = start;
        while (order[at] != start) {
            const size_t from = order[at];
            groups[at] = std::move(groups[from]);
            order[at] = static_cast<uint32_t>(at);
            at = from;
        }
        groups[at] = std::move(held);
        order[at] = static_cast<uint32_t>(at);
    }
}

}  // namespace

// A capture of millions of connections can have a group for nearly every finding, so the groups
// are built in passes that hold as little at once as they can: the key map is gone before the
// groups are made, each group's list is made at its size, and the groups are sorted through an
// index rather than by a stable sort's copy of them all.
FindingGroups groupFindings(const CaptureAnalysis& analysis) {
    const auto& findings = analysis.findings;
    size_t count = 0;
    const std::vector<uint32_t> numbers = groupNumbers(analysis, count);
    FindingGroups groups(count);
    {
        std::vector<uint32_t> sizes(count, 0);
        for (const uint32_t number : numbers) {
            ++sizes[number];
        }
        for (size_t number = 0; number < count; ++number) {
            groups[number].findings.reserve(sizes[number]);
        }
    }
    for (size_t index = 0; index < findings.size(); ++index) {
        const Finding& finding = findings[index];
        FindingGroup& group = groups[numbers[index]];
        if (group.findings.empty()) {
            group.kind = finding.kind;
            group.severity = finding.severity;
            group.shortestMs = finding.durationMs;
            if (const Connection* connection = heldConnection(analysis, finding)) {
                group.client = connection->client.address.toString();
                group.server = connection->server.toString();
            }
        }
        group.findings.push_back(index);
        group.severity = std::min(group.severity, finding.severity);  // Error < Warning < Info
        group.durationMs += finding.durationMs;
        group.connections += finding.impact.connections;
        group.delayedRequests += finding.impact.delayedRequests;
        group.shortestMs = std::min(group.shortestMs, finding.durationMs);
        group.longestMs = std::max(group.longestMs, finding.durationMs);
    }
    for (FindingGroup& group : groups) {
        group.wallMs = wallMsOf(analysis, group.findings);
        std::stable_sort(group.findings.begin(), group.findings.end(),
                         [&findings](size_t a, size_t b) { return findings[a].durationMs > findings[b].durationMs; });
    }
    std::vector<uint32_t> order(count);
    std::iota(order.begin(), order.end(), 0U);
    std::stable_sort(order.begin(), order.end(), [&groups](uint32_t a, uint32_t b) {
        const FindingGroup& first = groups[a];
        const FindingGroup& second = groups[b];
        return first.severity != second.severity ? first.severity < second.severity
                                                 : first.durationMs > second.durationMs;
    });
    permute(groups, order);
    return groups;
}

}  // namespace tcpscope
