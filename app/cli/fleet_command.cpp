// fleet: what no single host shows, from the records many hosts exported into ClickHouse
// (docs/records.md). Argument parsing and output only; the queries are in core/fleet.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "sinks/sink_spec.hpp"
#include "fleet/fleet_queries.hpp"
#include "fleet/fleet_report.hpp"
#include "fleet/since_time.hpp"
#include "text/json_text.hpp"

namespace tcpscope::cli {
namespace {

struct FleetOptions {
    std::string from;
    std::string since;
    FleetQueryOptions query;
    std::string format = "text";
};

int runFleet(FleetOptions& options) {
    ClickHouseTarget target;
    try {
        const SinkTarget parsed = parseSinkTarget(options.from);
        if (!std::holds_alternative<ClickHouseTarget>(parsed)) {
            fmt::print(stderr, "tcpscope-cli: --from {}: the fleet is read from clickhouse://HOST:PORT/DB\n",
                       options.from);
            return kExitUsage;
        }
        target = std::get<ClickHouseTarget>(parsed);
        if (!options.since.empty()) {
            const auto now = std::chrono::system_clock::now().time_since_epoch();
            options.query.sinceNs =
                parseSinceTime(options.since, std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
        }
    } catch (const std::invalid_argument& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return kExitUsage;
    }
    FleetResults results;
    try {
        results = runFleetQueries(target, options.query);
    } catch (const std::exception& error) {
        fmt::print(stderr, "tcpscope-cli: fleet: {}\n", error.what());
        return kExitUnreadable;
    }
    if (options.format == "json") {
        std::cout << jsonText(fleetJson(results, options.query)) << '\n';
    } else {
        writeFleetText(std::cout, results, options.query);
    }
    return kExitAnalysed;
}

}  // namespace

Subcommand addFleetCommand(CLI::App& app) {
    auto options = std::make_shared<FleetOptions>();
    CLI::App* command =
        app.add_subcommand("fleet", "what no single host shows, from the records exported into ClickHouse");
    command->add_option("--from", options->from, "clickhouse://HOST:PORT/DB")->required();
    command->add_option("--since", options->since,
                        "records from then on: 2026-11-27T18:00:00Z, epoch seconds, or back from now: 30m, 2h, 7d");
    command->add_option("--min-hosts", options->query.minHosts, "hosts a fleet finding needs")
        ->check(CLI::Range(2, 100000));
    command->add_option("--window-s", options->query.windowSeconds, "findings count together within windows this long")
        ->check(CLI::Range(1, 86400 * 30));
    command
        ->add_option("--near-full-pct", options->query.nearFullPercent,
                     "port pools added up count from this share of their port range")
        ->check(CLI::Range(1, 100));
    command
        ->add_option("--nat-ports", options->query.natPorts,
                     "ports a NAT address has towards one endpoint (default: the records' port range)")
        ->check(CLI::Range(1, 65535));
    command->add_option("--timeout-s", options->query.timeoutSeconds, "give up on the query after this long")
        ->check(CLI::Range(0.1, 3600.0));
    command->add_option("--format", options->format, "output format")->check(CLI::IsMember({"text", "json"}));
    return {command, [options] { return runFleet(*options); }};
}

}  // namespace tcpscope::cli
