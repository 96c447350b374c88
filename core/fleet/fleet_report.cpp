#include "fleet/fleet_report.hpp"

#include <fmt/format.h>

#include <ctime>
#include <string>

namespace tcpscope {

namespace {

std::string utcText(int64_t tsNs) {
    const auto seconds = static_cast<std::time_t>(tsNs / 1'000'000'000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                       utc.tm_hour, utc.tm_min, utc.tm_sec);
}

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) {
        text += (text.empty() ? "" : ", ") + name;
    }
    return text;
}

std::string percentOf(int64_t part, int64_t whole) {
    return whole > 0 ? fmt::format("{:.0f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole)) : "-";
}

void writeSameFindingLine(std::ostream& out, const FleetFinding& finding) {
    out << fmt::format("  {:<7} {:<23} {:<24} {} hosts ({}): {} findings, {:.1f} ms lost, {} to {}\n", finding.severity,
                       finding.kind, finding.server, finding.hosts.size(), joined(finding.hosts), finding.findings,
                       finding.durationMs, utcText(finding.firstTsNs), utcText(finding.lastTsNs));
}

void writePortPoolLine(std::ostream& out, const PortPoolFinding& finding, const FleetQueryOptions& options) {
    const std::string share = percentOf(finding.peakPorts, finding.capacity);
    const std::string during =
        fmt::format("{} s at {}% or more, {} to {}", finding.secondsNearFull, options.nearFullPercent,
                    utcText(finding.firstTsNs), utcText(finding.endTsNs));
    if (finding.kind == PortPoolFinding::Kind::PortsAcrossServers) {
        out << fmt::format(
            "  {:<7} {:<23} {} ({}): {} ports open or in TIME_WAIT towards {} servers together at {}, {} of its "
            "{}-port range (at most {} towards any one); {}; servers {}\n",
            finding.severity, portPoolKindName(finding.kind), joined(finding.hosts), joined(finding.clientAddresses),
            finding.peakPorts, finding.servers.size(), utcText(finding.peakTsNs), share, finding.capacity,
            finding.peakLargestPoolPorts, during, joined(finding.servers));
        return;
    }
    out << fmt::format(
        "  {:<7} {:<23} {} -> {}: {} hosts ({}) seen as this one client address held {} ports open or in TIME_WAIT "
        "together at {}, {} of the {} ports one address has towards one endpoint (at most {} from any one host); {}\n",
        finding.severity, portPoolKindName(finding.kind), joined(finding.clientAddresses), joined(finding.servers),
        finding.hosts.size(), joined(finding.hosts), finding.peakPorts, utcText(finding.peakTsNs), share,
        finding.capacity, finding.peakLargestPoolPorts, during);
}

nlohmann::ordered_json portPoolJson(const PortPoolFinding& finding) {
    return {{"kind", portPoolKindName(finding.kind)},
            {"severity", finding.severity},
            {"hosts", finding.hosts},
            {"client_addresses", finding.clientAddresses},
            {"servers", finding.servers},
            {"peak_ports", finding.peakPorts},
            {"capacity", finding.capacity},
            {"peak_largest_pool_ports", finding.peakLargestPoolPorts},
            {"peak_ts_ns", finding.peakTsNs},
            {"seconds_near_full", finding.secondsNearFull},
            {"window_start_ns", finding.windowStartNs},
            {"first_ts_ns", finding.firstTsNs},
            {"end_ts_ns", finding.endTsNs}};
}

}  // namespace

void writeFleetText(std::ostream& out, const FleetResults& results, const FleetQueryOptions& options) {
    const std::string since = options.sinceNs > 0 ? " since " + utcText(options.sinceNs) : "";
    if (results.empty()) {
        out << fmt::format(
            "No fleet finding{}: no finding of one kind towards one server on {} or more hosts within {} s, and no "
            "port range {}% full from one host's ports towards several servers or several hosts' behind one client "
            "address\n",
            since, options.minHosts, options.windowSeconds, options.nearFullPercent);
        return;
    }
    const size_t count =
        results.sameFindingOnManyHosts.size() + results.portsAcrossServers.size() + results.natPortsTowardServer.size();
    out << fmt::format("Fleet findings ({}){}, in windows of {} s\n", count, since, options.windowSeconds);
    for (const FleetFinding& finding : results.sameFindingOnManyHosts) {
        writeSameFindingLine(out, finding);
    }
    for (const auto* list : {&results.portsAcrossServers, &results.natPortsTowardServer}) {
        for (const PortPoolFinding& finding : *list) {
            writePortPoolLine(out, finding, options);
        }
    }
}

nlohmann::ordered_json fleetJson(const FleetResults& results, const FleetQueryOptions& options) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const FleetFinding& finding : results.sameFindingOnManyHosts) {
        list.push_back({{"kind", finding.kind},
                        {"severity", finding.severity},
                        {"server", finding.server},
                        {"hosts", finding.hosts},
                        {"findings", finding.findings},
                        {"duration_ms", finding.durationMs},
                        {"window_start_ns", finding.windowStartNs},
                        {"first_ts_ns", finding.firstTsNs},
                        {"last_ts_ns", finding.lastTsNs}});
    }
    for (const auto* pools : {&results.portsAcrossServers, &results.natPortsTowardServer}) {
        for (const PortPoolFinding& finding : *pools) {
            list.push_back(portPoolJson(finding));
        }
    }
    return {{"schema", "tcpscope-fleet/1"},
            {"since_ns", options.sinceNs},
            {"min_hosts", options.minHosts},
            {"window_s", options.windowSeconds},
            {"near_full_pct", options.nearFullPercent},
            {"nat_ports", options.natPorts},
            {"fleet_findings", std::move(list)}};
}

}  // namespace tcpscope
