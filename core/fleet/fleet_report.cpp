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

}  // namespace

void writeFleetText(std::ostream& out, const std::vector<FleetFinding>& findings, const FleetQueryOptions& options) {
    const std::string since = options.sinceNs > 0 ? " since " + utcText(options.sinceNs) : "";
    if (findings.empty()) {
        out << fmt::format(
            "No fleet finding: no kind of finding towards one server on {} or more hosts within {} s{}\n",
            options.minHosts, options.windowSeconds, since);
        return;
    }
    out << fmt::format("Fleet findings ({}): the same finding towards one server on {} or more hosts within {} s{}\n",
                       findings.size(), options.minHosts, options.windowSeconds, since);
    for (const FleetFinding& finding : findings) {
        out << fmt::format("  {:<7} {:<22} {:<24} {} hosts ({}): {} findings, {:.1f} ms lost, {} to {}\n",
                           finding.severity, finding.kind, finding.server, finding.hosts.size(), joined(finding.hosts),
                           finding.findings, finding.durationMs, utcText(finding.firstTsNs), utcText(finding.lastTsNs));
    }
}

nlohmann::ordered_json fleetJson(const std::vector<FleetFinding>& findings, const FleetQueryOptions& options) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const FleetFinding& finding : findings) {
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
    return {{"schema", "tcpscope-fleet/1"},
            {"since_ns", options.sinceNs},
            {"min_hosts", options.minHosts},
            {"window_s", options.windowSeconds},
            {"fleet_findings", std::move(list)}};
}

}  // namespace tcpscope
