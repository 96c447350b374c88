#include "report/incidents_text.hpp"

#include <fmt/format.h>

#include "finding/wording.hpp"

namespace tcpscope {

namespace {

std::string duration(double ms) {
    return ms >= 1000 ? fmt::format("{:.2f} s", ms / 1000) : fmt::format("{:.1f} ms", ms);
}

void append(std::string& line, const std::string& part) {
    line += (line.empty() ? "" : ", ") + part;
}

std::string rangeText(const IncidentImpact& impact) {
    if (!impact.portRange) {
        return {};
    }
    const PortRange& range = *impact.portRange;
    return fmt::format(" ({}{}-{}: {} ports{}, {:g} s TIME_WAIT)",
                       range.source == PortRangeSource::Observed ? "ports seen " : "range ", range.low, range.high,
                       groupedDigits(range.ports()), range.source == PortRangeSource::Observed ? ", observed" : "",
                       impact.timeWaitS.value_or(0));
}

}  // namespace

std::string impactLine(const IncidentImpact& impact) {
    std::string line;
    if (impact.connectionsBeforeStop) {
        append(line, fmt::format("{} connections before the stop", groupedDigits(*impact.connectionsBeforeStop)));
    } else if (impact.connections && !impact.synsDropped) {
        append(line, fmt::format("{} {}", groupedDigits(*impact.connections),
                                 *impact.connections == 1 ? "connection" : "connections"));
    }
    if (impact.pauseMs) {
        append(line, fmt::format("a {} pause", duration(*impact.pauseMs)));
    }
    if (impact.rateAchievedPerS && impact.rateSustainablePerS) {
        append(line, fmt::format("{:.0f}/s achieved against {:.1f}/s sustainable{}", *impact.rateAchievedPerS,
                                 *impact.rateSustainablePerS, rangeText(impact)));
    } else if (impact.rateAchievedPerS && impact.connectionsAnswered) {
        append(line, fmt::format("{} answered at {:.0f}/s", groupedDigits(*impact.connectionsAnswered),
                                 *impact.rateAchievedPerS));
    }
    if (impact.connectFailures) {
        append(line, fmt::format("{} connect() calls failed ({})", groupedDigits(*impact.connectFailures),
                                 impact.connectErrno));
    }
    if (impact.synsDropped) {
        std::string retries;
        for (const double offset : impact.synRetryOffsetsS) {
            retries += fmt::format("{}+{:.1f}", retries.empty() ? "" : ", ", offset);
        }
        append(line, fmt::format("{} SYNs dropped, retried at {} s", groupedDigits(*impact.synsDropped), retries));
    }
    if (impact.requestsDelayed && *impact.requestsDelayed > 0) {
        append(line, fmt::format("{} delayed", groupedDigits(*impact.requestsDelayed)));
        if (impact.latencyAddedMs) {
            append(line, fmt::format("{} added to each", duration(*impact.latencyAddedMs)));
        }
        if (impact.latencyP50Ms && impact.latencyP99Ms && impact.latencyMaxMs) {
            append(line, fmt::format("latency median {}, p99 {}, worst {}", duration(*impact.latencyP50Ms),
                                     duration(*impact.latencyP99Ms), duration(*impact.latencyMaxMs)));
        }
    }
    if (impact.wallMs && *impact.wallMs > 0) {
        append(line, fmt::format("{} of wall-clock time", duration(*impact.wallMs)));
    }
    return line.empty() ? std::string("nothing waited") : line;
}

void writeIncidentsText(std::ostream& out, const std::vector<Incident>& incidents) {
    out << fmt::format("Incidents: {}\n", incidents.size());
    for (const Incident& incident : incidents) {
        out << fmt::format("  #{} [{}] {}\n", incident.id, severityName(incident.severity), incident.title);
        std::string chain;
        for (const ChainStep& step : incident.chain) {
            chain += (chain.empty() ? "" : " -> ") + step.what;
        }
        out << fmt::format("    chain: {}\n", chain);
        out << fmt::format("    impact: {}\n", impactLine(incident.impact));
        for (const std::string& sentence : incident.fix.doThis) {
            out << fmt::format("    fix: {}\n", sentence);
        }
        for (const std::string& sentence : incident.fix.doesNotHelp) {
            out << fmt::format("    does not help: {}\n", sentence);
        }
    }
    out << '\n';
}

}  // namespace tcpscope
