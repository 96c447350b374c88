#include "cli_common.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "align/strace_time_zone.hpp"
#include "capture/bpf_filter.hpp"
#include "capture/capture_error.hpp"
#include "investigation/investigation.hpp"
#include "present/repeated_problems.hpp"

namespace tcpscope::cli {
namespace {

// strace logs of the traced processes, put on the capture's time axis.
void addStraceOptions(CLI::App& command, AnalysisInputOptions& options) {
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

// The points of --point NAME=FILE arguments, in order of each name's first use (a name given
// again adds a file to its point). Prints the error and returns nullopt for a bad argument.
std::optional<std::vector<CapturePoint>> parseCapturePoints(const std::vector<std::string>& arguments) {
    std::vector<CapturePoint> points;
    for (const std::string& argument : arguments) {
        const size_t equals = argument.find('=');
        if (equals == std::string::npos || equals == 0 || equals + 1 == argument.size()) {
            fmt::print(stderr, "tcpscope-cli: --point '{}' must be NAME=FILE, e.g. --point proxy=proxy.pcap\n", argument);
            return std::nullopt;
        }
        const std::string name = argument.substr(0, equals);
        const std::string file = argument.substr(equals + 1);
        std::error_code error;
        if (file != "-" && !std::filesystem::is_regular_file(file, error)) {
            fmt::print(stderr, "tcpscope-cli: --point {}: no such file: {}\n", name, file);
            return std::nullopt;
        }
        auto point = std::find_if(points.begin(), points.end(), [&](const CapturePoint& p) { return p.name == name; });
        if (point == points.end()) {
            point = points.insert(points.end(), CapturePoint{name, {}});
        }
        point->files.push_back(file);
    }
    return points;
}

// Sets the clocks of --clock NAME=OFFSET_MS[,DRIFT_PPM] arguments on `points`. Prints the error
// and returns false for a bad argument, a name that is no point, or the first point (the reference).
bool parseGivenClocks(const std::vector<std::string>& arguments, std::vector<CapturePoint>& points) {
    for (const std::string& argument : arguments) {
        const size_t equals = argument.find('=');
        const std::string name = equals == std::string::npos ? std::string() : argument.substr(0, equals);
        const std::string value = equals == std::string::npos ? std::string() : argument.substr(equals + 1);
        GivenClock clock;
        char* end = nullptr;
        clock.offsetMs = std::strtod(value.c_str(), &end);
        bool valid = !name.empty() && !value.empty() && end != value.c_str();
        if (valid && *end == ',') {
            const char* drift = end + 1;
            clock.driftPpm = std::strtod(drift, &end);
            valid = end != drift;
        }
        if (!valid || *end != '\0' || !std::isfinite(clock.offsetMs) || !std::isfinite(clock.driftPpm)) {
            fmt::print(stderr, "tcpscope-cli: --clock '{}' must be NAME=OFFSET_MS[,DRIFT_PPM], e.g. --clock server=3200.5\n",
                       argument);
            return false;
        }
        auto point = std::find_if(points.begin(), points.end(), [&](const CapturePoint& p) { return p.name == name; });
        if (point == points.end()) {
            fmt::print(stderr, "tcpscope-cli: --clock {}: no capture point of that name\n", name);
            return false;
        }
        if (point == points.begin()) {
            fmt::print(stderr, "tcpscope-cli: --clock {}: the first point is the reference clock\n", name);
            return false;
        }
        point->clock = clock;
    }
    return true;
}

}  // namespace

void addCapturePointOption(CLI::App& command, AnalysisInputOptions& options) {
    command.add_option("--point", options.points,
                       "NAME=FILE: a capture taken at one point of the path (repeat for each point; the same NAME "
                       "again adds a file to that point); packets seen at several points count once, on the first "
                       "point's clock")
        ->allow_extra_args(false);  // one NAME=FILE per --point: a file after it is a positional file
    command.add_option("--clock", options.clocks,
                       "NAME=OFFSET_MS[,DRIFT_PPM]: the clock of point NAME, ahead of the first point's by OFFSET_MS "
                       "at its first packet and running DRIFT_PPM fast (default 0), instead of the fitted one")
        ->allow_extra_args(false);
    CLI::Option* files = command.get_option_no_throw("files");
    (files != nullptr ? files : command.get_option("file"))->required(false);
}

void addDetectorOptions(CLI::App& command, ThresholdOptions& options) {
    DetectorOptions& d = options.detectors;
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

void addAnalysisInputOptions(CLI::App& command, AnalysisInputOptions& options, bool severalFiles) {
    if (severalFiles) {
        command.add_option("files", options.files, "capture files (pcap, pcapng, gzip or zstd; - for standard input)")
            ->required();
    } else {
        command.add_option("file", options.files, "capture file (pcap, pcapng, gzip or zstd; - for standard input)")
            ->required()
            ->expected(1);
    }
    command.add_option("--filter", options.filter, "tcpdump filter expression, e.g. 'tcp port 3306'");
    CLI::Option* spillTo =
        command.add_option("--spill-dir", options.spillDirectory,
                           "keep the records of every connection (and the detectors' state of each) in a file in "
                           "this directory, out of memory: W1 at 100 M packets in 1.5-2.1 GB instead of 7.2, "
                           "about 3.7 times slower (by default only when the input is twice the memory available, in $TMPDIR "
                           "or /var/tmp)");
    command.add_flag("--no-spill", options.noSpill, "keep the records of every connection in memory")
        ->excludes(spillTo);
    addDetectorOptions(command, options.thresholds);
    addStraceOptions(command, options);
}

namespace {

// Bytes of memory the system could give without swapping (MemAvailable), or nullopt if unknown.
std::optional<uintmax_t> availableMemoryBytes() {
    std::FILE* meminfo = std::fopen("/proc/meminfo", "r");
    if (meminfo == nullptr) {
        return std::nullopt;
    }
    std::optional<uintmax_t> available;
    char line[256];
    while (std::fgets(line, sizeof line, meminfo) != nullptr) {
        unsigned long long kib = 0;
        if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
            available = uintmax_t{kib} * 1024;
            break;
        }
    }
    std::fclose(meminfo);
    return available;
}

// Turns the spill file on where --spill-dir says, or by itself for an input whose analysis would
// not fit in the memory available, for the rest of the command.
void startSpill(AnalysisInputOptions& options) {
    if (options.noSpill) {
        return;
    }
    std::filesystem::path directory = options.spillDirectory;
    if (directory.empty()) {
        uintmax_t inputBytes = 0;
        for (const std::string& file : options.files) {
            std::error_code unknown;
            const uintmax_t bytes = std::filesystem::file_size(file, unknown);
            inputBytes += unknown ? 0 : bytes;
        }
        const std::optional<uintmax_t> available = availableMemoryBytes();
        if (!available || inputBytes / kAnalysisBytesPerMemoryByte <= *available) {
            return;
        }
        const char* tmpdir = std::getenv("TMPDIR");  // NOLINT(concurrency-mt-unsafe): read before any thread starts
        directory = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/var/tmp";
        fmt::print(stderr,
                   "tcpscope-cli: note: {:.1f} GB of input and {:.1f} GB of memory available: the connections' "
                   "records go to a file in {} (slower; --no-spill keeps them in memory)\n",
                   static_cast<double>(inputBytes) / 1e9, static_cast<double>(*available) / 1e9, directory.string());
    }
    options.spill = std::make_shared<ChunkSpill>(directory);
}

}  // namespace

std::optional<DetectorOptions> resolveDetectorOptions(const CLI::App& command, const ThresholdOptions& options) {
    DetectorOptions resolved = *DetectorOptions::forOs(options.os);
    const DetectorOptions& given = options.detectors;
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
            return std::nullopt;
        }
        resolved.portRangeLow = static_cast<uint16_t>(low);
        resolved.portRangeHigh = static_cast<uint16_t>(high);
        resolved.portRangeGiven = true;
    }
    return resolved;
}

void reportInputProblems(const CaptureAnalysis& analysis) {
    for (const InputSummary& input : analysis.inputs) {
        for (const InputProblem& problem : input.errors) {
            fmt::print(stderr, "tcpscope-cli: {} (the {} packets before it were analysed)\n", problem.describe(),
                       input.frames);
        }
        for (const ProblemGroup& group : groupRepeatedProblems(input.warnings)) {
            fmt::print(stderr, "tcpscope-cli: warning: {}\n", describeProblemGroup(group));
        }
    }
}

int loadAnalysis(const CLI::App& command, AnalysisInputOptions& options, Investigation& loaded) {
    const std::optional<DetectorOptions> detectors = resolveDetectorOptions(command, options.thresholds);
    if (!detectors) {
        return kExitUsage;
    }
    StraceClockOptions clock;
    if (!options.straceTz.empty()) {
        clock.tzOffsetMinutes = parseTimeZoneOffset(options.straceTz);
        if (!clock.tzOffsetMinutes) {
            fmt::print(stderr, "tcpscope-cli: --strace-tz must be +HH:MM or -HH:MM, e.g. +02:00\n");
            return kExitUsage;
        }
    }
    clock.offsetMs = options.straceOffsetMs;

    InvestigationInputs inputs;
    inputs.straceLogs = options.straceLogs;
    inputs.straceClock = clock;
    AnalysisOptions& analysisOptions = inputs.options;
    analysisOptions.engine.filter = options.filter;
    analysisOptions.engine.keepPacketIndex = options.readsPackets;
    analysisOptions.detectors = *detectors;
    analysisOptions.describeWhenWritten = options.describesWhenWritten;
    if (!options.points.empty()) {
        if (!options.files.empty()) {
            fmt::print(stderr, "tcpscope-cli: give the capture files either all with --point NAME=FILE or none\n");
            return kExitUsage;
        }
        std::optional<std::vector<CapturePoint>> points = parseCapturePoints(options.points);
        if (!points || !parseGivenClocks(options.clocks, *points)) {
            return kExitUsage;
        }
        inputs.points = std::move(*points);
    } else if (!options.clocks.empty()) {
        fmt::print(stderr, "tcpscope-cli: --clock needs the capture points (--point NAME=FILE)\n");
        return kExitUsage;
    } else if (options.files.empty()) {
        fmt::print(stderr, "tcpscope-cli: no capture file given (FILE... or --point NAME=FILE)\n");
        return kExitUsage;
    }
    inputs.captures = options.files;
    startSpill(options);
    try {
        loaded = investigate(inputs);
    } catch (const BpfFilterError& error) {
        fmt::print(stderr, "tcpscope-cli: invalid filter expression '{}': {}\n", options.filter, error.what());
        return kExitUsage;
    } catch (const CaptureError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return kExitUnreadable;
    }
    reportInputProblems(loaded.analysis);
    if (const std::string spillError = ChunkSpill::error(); !spillError.empty()) {
        fmt::print(stderr, "tcpscope-cli: warning: {}\n", spillError);
    }
    if (!loaded.straceProblem.empty()) {
        fmt::print(stderr, "tcpscope-cli: {}\n", loaded.straceProblem);
        return kExitUnreadable;
    }
    if (!loaded.recordedCallsUnused.empty()) {
        fmt::print(stderr, "tcpscope-cli: warning: the recorded system calls were left out: {}\n",
                   loaded.recordedCallsUnused);
    }
    if (const StraceAlignment* alignment = loaded.aligned()) {
        for (const AlignedLog& log : alignment->logs) {
            if (log.lostCalls.value_or(0) > 0) {
                fmt::print(stderr,
                           "tcpscope-cli: warning: {}: {} system calls were lost while recording (the ring buffer "
                           "was full); a stall among them may go without a verdict\n",
                           fmt::join(log.files, " "), *log.lostCalls);
            }
        }
    }
    if (loaded.straceMismatch) {
        fmt::print(stderr, "tcpscope-cli: {}\n", loaded.straceMismatch->reason);
        return kExitStraceMismatch;
    }
    return kExitAnalysed;
}

}  // namespace tcpscope::cli
