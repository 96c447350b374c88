// tcpscope-cli: the headless front end. Argument parsing and output only; the work is in core/.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench/generator_error.hpp"
#include "bench/workload.hpp"
#include "capture/bpf_filter.hpp"
#include "capture/capture_error.hpp"
#include "analysis/capture_analysis.hpp"
#include "align/stall_confirmation.hpp"
#include "align/strace_alignment.hpp"
#include "detect/detector_options.hpp"
#include "report/syscalls_text.hpp"
#include "report/json_report.hpp"
#include "report/mermaid_sequence.hpp"
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
    std::vector<std::string> straceLogs;
    std::string straceTz;
    std::optional<double> straceOffsetMs;
};

// strace logs of the traced processes, put on the capture's time axis.
void addStraceOptions(CLI::App& command, CommonOptions& options) {
    const char* group = "System call traces";
    command.add_option("--strace", options.straceLogs,
                       "strace log of a process (strace -f -tt -T -yy); repeat for several; NAME.PID files of "
                       "strace -ff given together form one log")
        ->group(group);
    command.add_option("--strace-tz", options.straceTz,
                       "time zone of -t/-tt logs as +HH:MM or -HH:MM (default: found by best fit)")
        ->group(group);
    command.add_option("--strace-offset", options.straceOffsetMs,
                       "milliseconds to add to the logs' times (default: measured from writes and segments)")
        ->group(group);
}

// "+02:00", "-05:30", "UTC" -> minutes east of UTC.
std::optional<int> parseTimeZone(const std::string& text) {
    if (text == "UTC" || text == "Z") {
        return 0;
    }
    int hours = 0;
    int minutes = 0;
    char sign = 0;
    if (std::sscanf(text.c_str(), "%c%d:%d", &sign, &hours, &minutes) < 2 || (sign != '+' && sign != '-') ||
        hours > 14 || minutes < 0 || minutes >= 60) {
        return std::nullopt;
    }
    return (sign == '-' ? -1 : 1) * (hours * 60 + minutes);
}

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
    command.add_option("--time-wait-min-closes", d.timeWaitMinCloses,
                       "report TIME_WAIT churn for a host that closed at least this many connections first")
        ->capture_default_str()->group(group);
    command.add_option("--time-wait-warn-share", d.timeWaitWarnShare,
                       "TIME_WAIT churn is a warning above this share of the port range in TIME_WAIT")
        ->capture_default_str()->group(group);
    command.add_option("--port-pause-min-share", d.portPauseMinShare,
                       "a pause of new connections at least this share of TIME_WAIT counts as port exhaustion")
        ->capture_default_str()->group(group);
    command.add_option("--port-exhaustion-min-ports", d.portExhaustionMinPorts,
                       "port exhaustion needs at least this many ports in use")
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
    take("--time-wait-min-closes", resolved.timeWaitMinCloses, given.timeWaitMinCloses);
    take("--time-wait-warn-share", resolved.timeWaitWarnShare, given.timeWaitWarnShare);
    take("--port-pause-min-share", resolved.portPauseMinShare, given.portPauseMinShare);
    take("--port-exhaustion-min-ports", resolved.portExhaustionMinPorts, given.portExhaustionMinPorts);
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
    addStraceOptions(command, options);
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

    std::optional<tcpscope::StraceAlignment> alignment;
    if (!options.straceLogs.empty()) {
        tcpscope::StraceClockOptions clock;
        if (!options.straceTz.empty()) {
            clock.tzOffsetMinutes = parseTimeZone(options.straceTz);
            if (!clock.tzOffsetMinutes) {
                fmt::print(stderr, "tcpscope-cli: --strace-tz must be +HH:MM or -HH:MM, e.g. +02:00\n");
                return kExitUsage;
            }
        }
        clock.offsetMs = options.straceOffsetMs;
        try {
            alignment = tcpscope::loadStraceLogs(options.straceLogs, analysis, clock);
        } catch (const tcpscope::CaptureError& error) {
            fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
            return kExitUnreadable;
        }
        tcpscope::confirmFindingsWithSyscalls(analysis.findings, *alignment, *analysis.engine);
    }
    const tcpscope::StraceAlignment* aligned = alignment ? &*alignment : nullptr;

    const bool json = options.format == "json";
    switch (command) {
        case Command::Analyze:
            if (json) {
                std::cout << tcpscope::analysisReportJson(analysis, aligned).dump(2) << '\n';
            } else {
                tcpscope::writeAnalysisText(std::cout, analysis);
                if (aligned != nullptr) {
                    tcpscope::writeSyscallsText(std::cout, *aligned);
                }
            }
            break;
        case Command::Flows:
            if (json) {
                std::cout << tcpscope::flowsReportJson(analysis, aligned).dump(2) << '\n';
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

// ---- generate: the benchmark's synthetic captures (core/bench/) ----------------------------
struct GenerateOptions {
    std::string workload;
    tcpscope::bench::WorkloadOptions workloadOptions;
    std::string out;
};

CLI::App* addGenerateCommand(CLI::App& app, GenerateOptions& options) {
    CLI::App* generate = app.add_subcommand(
        "generate", "write a deterministic synthetic capture for the benchmark (W1, W2, W3 of issue 7)");
    generate->add_option("--workload", options.workload,
                         "w1: 10 M small packets over 1 M short connections with every trouble mixed in; "
                         "w2: 3 M packets, 3 GB of full-sized segments over 2,000 long connections; "
                         "w3: SYN scan of 5 M tuples, one tuple reused 5,000 times, zero-window storms")
        ->required()
        ->check(CLI::IsMember({"w1", "w2", "w3"}, CLI::ignore_case));
    tcpscope::bench::WorkloadOptions& w = options.workloadOptions;
    generate->add_option("--packets", w.packets, "packets to write (default: the full workload)")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 32));
    generate->add_option("--connections", w.connections,
                         "w1: connections; w2: long connections; w3: scanned tuples (default: in proportion)")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 26));
    generate->add_option("--seed", w.seed, "same seed, same bytes")->capture_default_str();
    generate->add_option("--snaplen", w.snaplen, "cut frames longer than this (IP lengths stay real)")
        ->capture_default_str()
        ->check(CLI::Range(64u, 262144u));
    generate->add_option("--out", options.out, "the pcap file to write")->required();
    return generate;
}

int runGenerate(GenerateOptions& options) {
    tcpscope::bench::WorkloadOptions& w = options.workloadOptions;
    w.workload = *tcpscope::bench::parseWorkload(options.workload);
    tcpscope::bench::GeneratorStats stats;
    try {
        stats = tcpscope::bench::generateCapture(options.out, w);
    } catch (const tcpscope::bench::GeneratorError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return kExitUnreadable;
    }
    fmt::print("generated {}\n  workload     {} (seed {})\n  packets      {}\n  connections  {}\n"
               "  bytes        {}\n  capture time {:.3f} s\n  peak open    {} conversations\n",
               options.out, tcpscope::bench::workloadName(w.workload), w.seed, stats.packets, stats.connections,
               stats.bytes, static_cast<double>(stats.lastTsNs - stats.firstTsNs) / 1e9, stats.peakConversations);
    return kExitAnalysed;
}
// ---- end of generate -----------------------------------------------------------------------

// ---- mermaid: the ladder diagram of a flow (or a proxy pair) as Mermaid text (issue 5) -----
struct MermaidCommandOptions {
    std::string file;
    uint32_t flow = 0;
    std::optional<uint32_t> proxyFlow;
    size_t maxArrows = 500;
};

CLI::App* addMermaidCommand(CLI::App& app, MermaidCommandOptions& options) {
    CLI::App* mermaid = app.add_subcommand("mermaid", "the sequence diagram of a flow as Mermaid text");
    mermaid->add_option("file", options.file, "capture file")->required();
    mermaid->add_option("--flow", options.flow, "flow id (the client side, with --proxy-flow)")->required();
    mermaid->add_option("--proxy-flow", options.proxyFlow, "the proxy's flow to the server: three lifelines");
    mermaid->add_option("--max-arrows", options.maxArrows, "packets drawn at most")->capture_default_str();
    return mermaid;
}

int runMermaid(const MermaidCommandOptions& options) {
    tcpscope::CaptureAnalysis analysis;
    try {
        analysis = tcpscope::analyzeCaptures({options.file}, {});
    } catch (const tcpscope::CaptureError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return kExitUnreadable;
    }
    reportInputProblems(analysis);
    const size_t flows = analysis.engine->connections().size();
    for (const uint32_t id : {options.flow, options.proxyFlow.value_or(options.flow)}) {
        if (id >= flows) {
            fmt::print(stderr, "tcpscope-cli: no flow {} (the capture has {})\n", id, flows);
            return kExitUsage;
        }
    }
    if (options.proxyFlow == options.flow) {
        fmt::print(stderr, "tcpscope-cli: --proxy-flow must differ from --flow\n");
        return kExitUsage;
    }
    const tcpscope::SequenceDiagram diagram =
        options.proxyFlow ? tcpscope::SequenceDiagram::ofProxy(analysis, options.flow, *options.proxyFlow)
                          : tcpscope::SequenceDiagram::ofConnection(analysis, options.flow);
    tcpscope::MermaidOptions mermaidOptions;
    mermaidOptions.maxArrows = options.maxArrows;
    std::cout << tcpscope::mermaidSequence(diagram, mermaidOptions);
    std::cout.flush();
    return kExitAnalysed;
}
// ---- end of mermaid ------------------------------------------------------------------------

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

    GenerateOptions generateOptions;
    CLI::App* generate = addGenerateCommand(app, generateOptions);

    MermaidCommandOptions mermaidOptions;
    CLI::App* mermaid = addMermaidCommand(app, mermaidOptions);

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

    if (generate->parsed()) {
        return runGenerate(generateOptions);
    }
    if (mermaid->parsed()) {
        return runMermaid(mermaidOptions);
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
