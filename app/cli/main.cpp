// tcpscope-cli: the headless front end. Argument parsing and output only; the work is in core/.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "capture/bpf_filter.hpp"
#include "capture/capture_error.hpp"
#include "analysis/capture_analysis.hpp"
#include "detect/detector_options.hpp"
#include "report/json_report.hpp"
#include "report/text_report.hpp"

namespace {

// Exit codes, documented in the README.
constexpr int kExitAnalysed = 0;
constexpr int kExitUsage = 2;
constexpr int kExitUnreadable = 3;

struct CommonOptions {
    std::vector<std::string> files;
    std::string filter;
    std::string format = "text";
    std::string os = "linux";
    std::string portRange;
    tcpscope::DetectorOptions detectors;
};

// The detectors' thresholds. --os sets the defaults of a system; the other flags override them.
void addDetectorOptions(CLI::App& command, CommonOptions& options) {
    tcpscope::DetectorOptions& d = options.detectors;
    const char* group = "Detector thresholds";
    command.add_option("--os", options.os, "defaults of the hosts' system: TIME_WAIT length, port range")
        ->check(CLI::IsMember({"linux", "macos", "windows"}))
        ->group(group);
    command.add_option("--delayed-ack-floor-ms", d.delayedAckFloorMs,
                       "an ACK at least this late is a delayed ACK (Linux 40, macOS ~100, Windows 200)")
        ->capture_default_str()->group(group);
    command.add_option("--nagle-release-ms", d.nagleReleaseMs,
                       "a held segment leaves within this (plus the RTT) after the ACK")
        ->capture_default_str()->group(group);
    command.add_option("--time-wait-s", d.timeWaitSeconds, "TIME_WAIT length in seconds (Linux 60)")->group(group);
    command.add_option("--port-range", options.portRange, "ephemeral port range LOW-HIGH (Linux 32768-60999)")
        ->group(group);
    command.add_option("--syn-retransmit-min-ms", d.synRetransmitMinMs,
                       "a repeated SYN at least this late is a retransmission by timeout")
        ->capture_default_str()->group(group);
    command.add_option("--rto-stall-min-ms", d.retransmissionStallMinMs,
                       "a gap ended by a retransmission at least this long is a stall")
        ->capture_default_str()->group(group);
    command.add_option("--zero-window-min-ms", d.zeroWindowStallMinMs,
                       "a closed receive window at least this long is a stall")
        ->capture_default_str()->group(group);
}

// Applies --os defaults under the values given explicitly. Returns false for a bad --port-range.
bool resolveDetectorOptions(CLI::App& command, CommonOptions& options) {
    tcpscope::DetectorOptions resolved = *tcpscope::DetectorOptions::forOs(options.os);
    const tcpscope::DetectorOptions& given = options.detectors;
    auto take = [&command](const char* flag, auto& target, auto value) {
        if (command.count(flag) > 0) {
            target = value;
        }
    };
    take("--delayed-ack-floor-ms", resolved.delayedAckFloorMs, given.delayedAckFloorMs);
    take("--nagle-release-ms", resolved.nagleReleaseMs, given.nagleReleaseMs);
    take("--time-wait-s", resolved.timeWaitSeconds, given.timeWaitSeconds);
    take("--syn-retransmit-min-ms", resolved.synRetransmitMinMs, given.synRetransmitMinMs);
    take("--rto-stall-min-ms", resolved.retransmissionStallMinMs, given.retransmissionStallMinMs);
    take("--zero-window-min-ms", resolved.zeroWindowStallMinMs, given.zeroWindowStallMinMs);
    if (!options.portRange.empty()) {
        unsigned low = 0;
        unsigned high = 0;
        char dash = 0;
        if (std::sscanf(options.portRange.c_str(), "%u%c%u", &low, &dash, &high) != 3 || dash != '-' || low == 0 ||
            high > 65535 || low > high) {
            fmt::print(stderr, "tcpscope-cli: --port-range must be LOW-HIGH, e.g. 32768-60999\n");
            return false;
        }
        resolved.portRangeLow = static_cast<uint16_t>(low);
        resolved.portRangeHigh = static_cast<uint16_t>(high);
        resolved.portRangeGiven = true;
    }
    options.detectors = resolved;
    return true;
}

void addCommonOptions(CLI::App& command, CommonOptions& options, bool severalFiles) {
    if (severalFiles) {
        command.add_option("files", options.files, "capture files (pcap, pcapng, gzip or zstd; - for standard input)")
            ->required();
    } else {
        command.add_option("file", options.files, "capture file (pcap, pcapng, gzip or zstd; - for standard input)")
            ->required()
            ->expected(1);
    }
    command.add_option("--filter", options.filter, "tcpdump filter expression, e.g. 'tcp port 3306'");
    command.add_option("--format", options.format, "output format")->check(CLI::IsMember({"text", "json"}));
    addDetectorOptions(command, options);
}

// Problems that ended a file early are shown on stderr too, one line each; the report still comes.
void reportInputProblems(const tcpscope::CaptureAnalysis& analysis) {
    for (const tcpscope::InputSummary& input : analysis.inputs) {
        for (const tcpscope::InputProblem& problem : input.errors) {
            fmt::print(stderr, "tcpscope-cli: {} (the {} packets before it were analysed)\n", problem.describe(),
                       input.frames);
        }
        for (const tcpscope::InputProblem& problem : input.warnings) {
            fmt::print(stderr, "tcpscope-cli: warning: {}\n", problem.describe());
        }
    }
}

enum class Command { Analyze, Flows, Packets };

int run(Command command, const CommonOptions& options, std::optional<uint32_t> flow) {
    tcpscope::AnalysisOptions analysisOptions;
    analysisOptions.engine.filter = options.filter;
    analysisOptions.detectors = options.detectors;
    tcpscope::CaptureAnalysis analysis;
    try {
        analysis = tcpscope::analyzeCaptures(options.files, analysisOptions);
    } catch (const tcpscope::BpfFilterError& error) {
        fmt::print(stderr, "tcpscope-cli: invalid filter expression '{}': {}\n", options.filter, error.what());
        return kExitUsage;
    } catch (const tcpscope::CaptureError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return kExitUnreadable;
    }
    reportInputProblems(analysis);

    const bool json = options.format == "json";
    switch (command) {
        case Command::Analyze:
            if (json) {
                std::cout << tcpscope::analysisReportJson(analysis).dump(2) << '\n';
            } else {
                tcpscope::writeAnalysisText(std::cout, analysis);
            }
            break;
        case Command::Flows:
            if (json) {
                std::cout << tcpscope::flowsReportJson(analysis).dump(2) << '\n';
            } else {
                tcpscope::writeFlowsText(std::cout, analysis);
            }
            break;
        case Command::Packets:
            if (json) {
                std::cout << tcpscope::packetsReportJson(analysis, flow).dump(1) << '\n';
            } else {
                tcpscope::writePacketsText(std::cout, analysis, flow);
            }
            break;
    }
    std::cout.flush();
    return kExitAnalysed;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"tcpscope-cli: find the stalls in TCP captures (Nagle and delayed ACK, port reuse, "
                 "TIME_WAIT, backlog overflow)"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "tcpscope 0.1.0");

    CommonOptions analyzeOptions;
    CLI::App* analyze = app.add_subcommand("analyze", "capture summary, findings and connections");
    addCommonOptions(*analyze, analyzeOptions, true);

    CommonOptions flowsOptions;
    CLI::App* flows = app.add_subcommand("flows", "the connection table");
    addCommonOptions(*flows, flowsOptions, false);

    CommonOptions packetsOptions;
    std::optional<uint32_t> flow;
    CLI::App* packets = app.add_subcommand("packets", "one row per TCP packet with Wireshark's analysis flags");
    addCommonOptions(*packets, packetsOptions, false);
    packets->add_option("--flow", flow, "only the packets of this flow id");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& help) {
        return app.exit(help);
    } catch (const CLI::CallForAllHelp& help) {
        return app.exit(help);
    } catch (const CLI::CallForVersion& version) {
        return app.exit(version);
    } catch (const CLI::ParseError& error) {
        app.exit(error);
        return kExitUsage;
    }

    struct Choice {
        CLI::App* command;
        CommonOptions* options;
        Command which;
    };
    for (const Choice& choice : {Choice{analyze, &analyzeOptions, Command::Analyze},
                                 Choice{flows, &flowsOptions, Command::Flows},
                                 Choice{packets, &packetsOptions, Command::Packets}}) {
        if (choice.command->parsed()) {
            if (!resolveDetectorOptions(*choice.command, *choice.options)) {
                return kExitUsage;
            }
            return run(choice.which, *choice.options, flow);
        }
    }
    return kExitUsage;
}
