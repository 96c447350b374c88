#include "present/port_pool_marks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "align/failed_connects.hpp"
#include "finding/wording.hpp"
#include "present/value_format.hpp"

namespace tcpscope {

namespace {

std::string limitOf(const HostPortPool& pool) {
    const HostPopulationChart& chart = pool.chart;
    if (pool.capacityOnScale()) {
        return fmt::format("{} ports ({}-{})", groupedDigits(chart.capacityPorts), chart.portRangeLow,
                           chart.portRangeHigh);
    }
    return chart.observedRangePorts > 0 ? fmt::format("{} ports", groupedDigits(chart.observedRangePorts)) : "";
}

void addPauses(const Finding& finding, std::vector<PortPoolPause>& pauses) {
    for (const FindingSpan& span : finding.spans) {
        if (span.connection == kNoConnection && span.endNs > span.startNs) {
            pauses.push_back({span.startNs, span.endNs,
                              "pause: no new connection for " +
                                  reportDuration(static_cast<double>(span.endNs - span.startNs) / 1e6)});
        }
    }
}

}  // namespace

PortPoolMarks portPoolMarks(const CaptureAnalysis& analysis, std::span<const size_t> findings,
                            const CapturePopulation* population, const StraceAlignment* alignment) {
    PortPoolMarks marks;
    std::optional<Endpoint> server;
    bool exhaustion = false;
    for (const size_t index : findings) {
        const Finding& finding = analysis.findings[index];
        if (finding.kind == FindingKind::PortExhaustion) {
            exhaustion = true;
            if (!server) {
                server = finding.server;
            }
            addPauses(finding, marks.pauses);
        }
    }
    if (!exhaustion) {
        // TIME_WAIT churn: the pauses it led to, if the ports ran out.
        for (const Finding& finding : analysis.findings) {
            if (finding.kind == FindingKind::PortExhaustion) {
                addPauses(finding, marks.pauses);
            }
        }
    }
    std::sort(marks.pauses.begin(), marks.pauses.end(),
              [](const PortPoolPause& a, const PortPoolPause& b) { return a.startNs < b.startNs; });
    if (population != nullptr && population->busiest() != nullptr) {
        marks.limit = limitOf(*population->busiest());
        marks.limitLabel = marks.limit.empty() ? std::string() : "limit: " + marks.limit;
    }
    if (alignment != nullptr) {
        marks.failedConnectsNs = failedConnectTimes(*alignment, server);
        if (!marks.failedConnectsNs.empty()) {
            marks.failedConnectsLabel = fmt::format("{} connect() calls failed: EADDRNOTAVAIL, no free local port",
                                                    groupedDigits(marks.failedConnectsNs.size()));
        }
    }
    return marks;
}

std::string portPoolNote(const PortPoolMarks& marks) {
    std::string note = fmt::format(
        "the capture-wide rows over the cause's time: new connections per second, the host's TIME_WAIT and ports "
        "in use{}",
        marks.limit.empty() ? std::string() : " against the limit of its port range (dashed, " + marks.limit + ")");
    if (!marks.pauses.empty()) {
        note += fmt::format("; shaded: {} during which no new connection could be made",
                            plural(marks.pauses.size(), "pause", "pauses"));
    }
    if (!marks.failedConnectsNs.empty()) {
        note += fmt::format("; a row of the {} from the system call trace",
                            plural(marks.failedConnectsNs.size(), "connect() call that failed with EADDRNOTAVAIL",
                                   "connect() calls that failed with EADDRNOTAVAIL"));
    }
    return note + ".";
}

}  // namespace tcpscope
