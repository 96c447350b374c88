// record: packets and the socket system calls of chosen processes (eBPF) into one pcapng file.
#include <fmt/format.h>
#include <signal.h>

#include <optional>

#include "capture/pcapng_writer.hpp"
#include "commands.hpp"
#include "live/live_error.hpp"
#include "recorder/capture_recording.hpp"
#include "stop_signals.hpp"

namespace tcpscope::cli {
namespace {

struct RecordCommandOptions {
    RecordingOptions recording;
    std::vector<uint32_t> pids;
    std::vector<std::string> commands;
    std::optional<double> durationSeconds;
    std::vector<std::string> filterWords;  // FILTER: the rest of the command line, as tcpdump takes it
};

int runRecord(RecordCommandOptions& options) {
    if (const std::string missing = syscallRecorderMissing(); !missing.empty()) {
        fmt::print(stderr, "tcpscope-cli: record: no system call recorder in this build: {}\n", missing);
        return kExitUnreadable;
    }
    for (const std::string& command : options.commands) {
        if (command.empty() || command.size() > 15) {
            fmt::print(stderr, "tcpscope-cli: --comm '{}': a command name as the kernel keeps it (1 to 15 bytes)\n",
                       command);
            return kExitUsage;
        }
    }
    std::string filter;
    for (const std::string& word : options.filterWords) {
        filter += (filter.empty() ? "" : " ") + word;
    }
    if (!filter.empty()) {
        options.recording.capture.filter = filter;
    }
    options.recording.processes = {options.pids, options.commands};
    StopSignals signals;
    std::unique_ptr<CaptureRecording> recording;
    try {
        recording = std::make_unique<CaptureRecording>(options.recording);
    } catch (const LiveCaptureError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return error.kind() == LiveErrorKind::BadFilter ? kExitUsage : kExitUnreadable;
    } catch (const SyscallRecorderError& error) {
        fmt::print(stderr, "tcpscope-cli: record: {}\n", error.what());
        return kExitUnreadable;
    } catch (const PcapngWriteError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return kExitUnreadable;
    }
    std::string whose = "every process";
    if (!options.pids.empty() || !options.commands.empty()) {
        std::vector<std::string> names;
        for (const uint32_t pid : options.pids) {
            names.push_back(fmt::format("pid {}", pid));
        }
        for (const std::string& command : options.commands) {
            names.push_back(command);
        }
        whose = fmt::format("{}", fmt::join(names, ", "));
    }
    const CaptureDescription& source = recording->description();
    fmt::print(stderr, "tcpscope-cli: recording packets on {}{} and the socket calls of {} into {}; Ctrl-C to stop\n",
               source.device, source.filter.empty() ? "" : fmt::format(" (filter '{}')", source.filter), whose,
               options.recording.path);
    signals.stopOnSignal([&recording = *recording](int /*signal*/) { recording.stop(); });
    RecordingSummary summary;
    try {
        summary = recording->run(options.durationSeconds);
    } catch (const std::exception& error) {
        fmt::print(stderr, "tcpscope-cli: the recording stopped early: {}\n", error.what());
        return kExitUnreadable;
    }
    fmt::print("Recorded {} packets ({} with their process), {} system calls in {} blocks, {} calls lost{}\n",
               summary.packets, summary.packetsWithProcess, summary.calls, summary.callBlocks, summary.lostCalls,
               summary.droppedByKernel > 0 ? fmt::format(", {} packets dropped by the kernel", summary.droppedByKernel)
                                           : std::string());
    if (summary.lostCalls > 0) {
        fmt::print(stderr, "tcpscope-cli: {} system calls were LOST (the ring buffer was full)\n", summary.lostCalls);
    }
    if (!summary.unattached.empty()) {
        fmt::print(stderr, "tcpscope-cli: not recorded (no such tracepoint on this kernel): {}\n",
                   fmt::join(summary.unattached, ", "));
    }
    return kExitAnalysed;
}

}  // namespace

Subcommand addRecordCommand(CLI::App& app) {
    auto options = std::make_shared<RecordCommandOptions>();
    CLI::App* command = app.add_subcommand(
        "record", "record packets and the socket system calls of chosen processes (eBPF) into one pcapng file "
                  "(root, or CAP_BPF, CAP_PERFMON, CAP_NET_RAW and CAP_NET_ADMIN)");
    command->add_option("-i,--interface", options->recording.capture.device, "interface to capture on (any: all)")
        ->required();
    command->add_option("-w,--write", options->recording.path, "the pcapng file to write")->required();
    command->add_option("--pid", options->pids, "record the system calls of this process (and its threads); repeatable")
        ->allow_extra_args(false);
    command->add_option("--comm", options->commands, "record the system calls of processes of this command name; repeatable")
        ->allow_extra_args(false);
    command->add_option("--duration", options->durationSeconds, "stop after this many seconds");
    command->add_option("--snaplen", options->recording.capture.snapLength, "bytes kept per packet")->capture_default_str();
    command->add_option("filter", options->filterWords, "capture filter (tcpdump syntax), e.g. tcp port 8080");
    return {command, [options] { return runRecord(*options); }};
}

}  // namespace tcpscope::cli
