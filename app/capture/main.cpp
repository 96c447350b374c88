// tcpscope-capture: the capture helper. It is the only part of tcpscope that needs CAP_NET_RAW
// and CAP_NET_ADMIN: it opens one device, gives up its capabilities, and streams what it
// captures as pcapng to standard output, for `tcpscope-cli capture` or the GUI to read over a
// pipe. It writes no file and reads no capture, so the capabilities reach nothing else. With
// --syscalls it also loads and attaches the system call recorder (CAP_BPF, CAP_PERFMON, and
// CAP_DAC_READ_SEARCH for tracefs, which is root's) before it gives them all up, and writes what
// `tcpscope-cli record` writes: the packets named with their processes and the calls' blocks.
#include <linux/capability.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "capture/pcapng_writer.hpp"
#include "live/helper_capture.hpp"
#include "live/live_error.hpp"
#include "live/pcap_capture.hpp"
#include "recorder/capture_recording.hpp"
#include "tcpscope_version.hpp"

namespace {

using namespace tcpscope;

std::string ownPath() {
    std::string path(PATH_MAX, '\0');
    const ssize_t length = ::readlink("/proc/self/exe", path.data(), path.size());
    path.resize(length > 0 ? static_cast<size_t>(length) : 0);
    return path.empty() ? "tcpscope-capture" : path;
}

// What to run so that this binary can capture without root: the one line the user needs.
std::string permissionHint() {
    const std::string path = ownPath();
    const bool hasFileCapabilities = ::getxattr(path.c_str(), "security.capability", nullptr, 0) > 0;
    if (hasFileCapabilities) {
        return fmt::format("{} has its capabilities, but they were not granted: is its file system mounted nosuid, "
                           "or does the caller run with no_new_privs (e.g. a container)?",
                           path);
    }
    return fmt::format("to capture without root, run once: sudo setcap cap_net_raw,cap_net_admin+eip {} "
                       "(tcpscope's Debian package does this when it installs, for the members of the tcpscope "
                       "group)",
                       path);
}

// The capabilities --syscalls needs besides the capture's, and the line that grants them all.
constexpr const char* kRecordingCapabilities = "cap_net_raw,cap_net_admin,cap_bpf,cap_perfmon,cap_dac_read_search";

std::string recordingHint() {
    return fmt::format(
        "to record system calls without root, run once: sudo setcap {}+eip {} "
        "(setup-capture-helper.sh does it)",
        kRecordingCapabilities, ownPath());
}

int exitStatusOf(LiveErrorKind kind) {
    switch (kind) {
    case LiveErrorKind::PermissionDenied:
        return helperexit::kPermissionDenied;
    case LiveErrorKind::NoSuchDevice:
        return helperexit::kNoSuchDevice;
    case LiveErrorKind::BadFilter:
        return helperexit::kBadFilter;
    case LiveErrorKind::Other:
        break;
    }
    return helperexit::kFailed;
}

// The open capture socket keeps working without them; nothing else the helper does needs them.
void dropCapabilities() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
    if (::syscall(SYS_capset, &header, data) != 0 && ::geteuid() != 0) {
        fmt::print(stderr, "tcpscope-capture: warning: cannot give up the capture capabilities\n");
    }
}

// Stop requests are taken by one thread with sigwait, never in a signal handler; a reader that
// goes away is an error of write(), handled where it is written.
sigset_t blockStopSignals() {
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    sigaddset(&stopSignals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
    return stopSignals;
}

// Writes each packet to standard output as pcapng, flushed after every batch.
class PipeSink final : public PacketSink {
public:
    PipeSink(PcapngWriter& writer, int statsFd, const PacketSource& source)
        : writer_(writer), statsFd_(statsFd), source_(source) {}

    // A write error (the reader went away) ends the capture: PcapCapture rethrows it from run().
    void onPacket(const RawPacket& packet) override {
        writer_.writePacket(
            PcapngPacket{0, packet.tsNs, packet.originalLength, {packet.data, packet.capturedLength}, {}});
    }
    void onBatchEnd() override {
        writer_.flush();
        if (const auto now = std::chrono::steady_clock::now(); now - lastStats_ >= kStatsInterval) {
            lastStats_ = now;
            writeStats();
        }
    }
    void writeStats() const {
        if (statsFd_ >= 0) {
            const std::string line = formatHelperStats(source_.stats());
            // Best effort: the counters are informative, and the reader may be gone.
            [[maybe_unused]] const ssize_t ignored = ::write(statsFd_, line.data(), line.size());
        }
    }

private:
    static constexpr std::chrono::milliseconds kStatsInterval{250};

    PcapngWriter& writer_;
    int statsFd_;
    const PacketSource& source_;
    std::chrono::steady_clock::time_point lastStats_;
};

int capture(const LiveCaptureOptions& options, int statsFd) {
    if (::isatty(STDOUT_FILENO) != 0) {
        fmt::print(stderr, "tcpscope-capture: standard output is a terminal; it writes pcapng for another program: "
                           "tcpscope-capture -i {} | tcpscope-cli analyze -\n",
                   options.device);
        return helperexit::kUsage;
    }
    const sigset_t stopSignals = blockStopSignals();

    std::unique_ptr<PcapCapture> source;
    try {
        source = std::make_unique<PcapCapture>(options);
    } catch (const LiveCaptureError& error) {
        if (error.kind() == LiveErrorKind::PermissionDenied) {
            fmt::print(stderr, "tcpscope-capture: {}; {}\n", error.what(), permissionHint());
        } else {
            fmt::print(stderr, "tcpscope-capture: {}\n", error.what());
        }
        return exitStatusOf(error.kind());
    }
    dropCapabilities();

    std::thread stopper([&source, stopSignals] {
        int signal = 0;
        sigwait(&stopSignals, &signal);
        source->stop();
    });
    int status = helperexit::kOk;
    try {
        utsname system{};
        ::uname(&system);
        PcapngWriter writer(STDOUT_FILENO, "standard output",
                            PcapngSectionInfo{system.machine, fmt::format("{} {}", system.sysname, system.release),
                                              fmt::format("tcpscope-capture {}", kVersion), {}},
                            PcapngFlush::Manual);
        const CaptureDescription& description = source->description();
        writer.addInterface(PcapngInterfaceInfo{description.linkType, description.snapLength, description.device, "",
                                                description.filter});
        writer.flush();
        PipeSink sink(writer, statsFd, *source);
        source->run(sink);
        sink.writeStats();
        const CaptureStats stats = source->stats();
        writer.writeInterfaceStats(PcapngInterfaceStats{0, 0, 0, stats.captured + stats.droppedByKernel,
                                                        stats.droppedByKernel, stats.droppedByInterface,
                                                        stats.captured});
        writer.close();
    } catch (const PcapngWriteError& error) {
        // The reader closed the pipe (it stopped reading): nothing is lost that it wanted.
        if (error.problem().reason.find("Broken pipe") == std::string::npos) {
            fmt::print(stderr, "tcpscope-capture: {}\n", error.what());
            status = helperexit::kFailed;
        }
    } catch (const LiveCaptureError& error) {
        fmt::print(stderr, "tcpscope-capture: {}\n", error.what());
        status = helperexit::kFailed;
    }
    // Wake the stopper thread if the capture ended on its own.
    pthread_kill(stopper.native_handle(), SIGTERM);
    stopper.join();
    return status;
}

// --syscalls: packets and the socket calls of the chosen processes, as `tcpscope-cli record`
// writes them, to standard output; every capability is given up once the device is open and the
// recorder attached (reading its ring buffer needs none).
int record(RecordingOptions options, int statsFd) {
    if (::isatty(STDOUT_FILENO) != 0) {
        fmt::print(stderr,
                   "tcpscope-capture: standard output is a terminal; it writes pcapng: "
                   "tcpscope-capture -i {} --syscalls ... > FILE.pcapng\n",
                   options.capture.device);
        return helperexit::kUsage;
    }
    if (const std::string missing = syscallRecorderMissing(); !missing.empty()) {
        fmt::print(stderr, "tcpscope-capture: --syscalls: no system call recorder in this build: {}\n", missing);
        return helperexit::kFailed;
    }
    const sigset_t stopSignals = blockStopSignals();
    options.path = "standard output";
    options.fd = STDOUT_FILENO;
    if (statsFd >= 0) {
        // As the capture without --syscalls: the kernel's counters at most every 250 ms, and at the end.
        options.onBatchStats = [statsFd, last = std::chrono::steady_clock::time_point()](const CaptureStats& stats,
                                                                                         bool atEnd) mutable {
            const auto now = std::chrono::steady_clock::now();
            if (atEnd || now - last >= std::chrono::milliseconds(250)) {
                last = now;
                const std::string line = formatHelperStats(stats);
                [[maybe_unused]] const ssize_t ignored = ::write(statsFd, line.data(), line.size());
            }
        };
    }
    std::unique_ptr<CaptureRecording> recording;
    try {
        recording = std::make_unique<CaptureRecording>(options);
    } catch (const LiveCaptureError& error) {
        fmt::print(stderr, "tcpscope-capture: {}{}\n", error.what(),
                   error.kind() == LiveErrorKind::PermissionDenied ? "; " + recordingHint() : std::string());
        return exitStatusOf(error.kind());
    } catch (const SyscallRecorderError& error) {
        fmt::print(stderr, "tcpscope-capture: --syscalls: {}{}\n", error.what(),
                   ::geteuid() != 0 ? "; " + recordingHint() : std::string());
        return helperexit::kPermissionDenied;
    } catch (const PcapngWriteError& error) {
        fmt::print(stderr, "tcpscope-capture: {}\n", error.what());
        return helperexit::kFailed;
    }
    dropCapabilities();
    std::thread stopper([&recording, stopSignals] {
        int signal = 0;
        sigwait(&stopSignals, &signal);
        recording->stop();
    });
    int status = helperexit::kOk;
    try {
        const RecordingSummary summary = recording->run(std::nullopt);
        if (summary.lostCalls > 0) {
            fmt::print(stderr, "tcpscope-capture: {} system calls were LOST (the ring buffer was full)\n",
                       summary.lostCalls);
        }
    } catch (const std::exception& error) {
        if (std::string_view(error.what()).find("Broken pipe") == std::string_view::npos) {
            fmt::print(stderr, "tcpscope-capture: {}\n", error.what());
            status = helperexit::kFailed;
        }
    }
    pthread_kill(stopper.native_handle(), SIGTERM);
    stopper.join();
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"tcpscope-capture: captures on one interface and writes pcapng to standard output "
                 "(the capture helper of tcpscope; it needs CAP_NET_RAW and CAP_NET_ADMIN, or root)"};
    app.set_version_flag("--version", kVersionLine);
    LiveCaptureOptions options;
    int statsFd = -1;
    app.add_option("-i,--interface", options.device, "interface to capture on (any: all of them)")->required();
    app.add_option("--filter", options.filter, "capture filter (tcpdump syntax), e.g. 'tcp port 3306'");
    app.add_option("--snaplen", options.snapLength, "bytes kept per packet")->capture_default_str();
    app.add_option("--buffer-bytes", options.bufferBytes, "kernel capture buffer in bytes")->capture_default_str();
    app.add_flag("--promiscuous", options.promiscuous, "put the interface in promiscuous mode");
    app.add_option("--stats-fd", statsFd, "descriptor to write the kernel's counters to, one line per batch");
    bool syscalls = false;
    SyscallRecorderFilter processes;
    auto* syscallsFlag = app.add_flag(
        "--syscalls", syscalls,
        "also record the socket system calls of --pid/--comm (eBPF) into the pcapng, as tcpscope-cli record does "
        "(needs CAP_BPF, CAP_PERFMON and CAP_DAC_READ_SEARCH too; all are given up once it is attached)");
    app.add_option("--pid", processes.pids, "with --syscalls: this process and its threads; repeatable")
        ->allow_extra_args(false)
        ->needs(syscallsFlag);
    app.add_option("--comm", processes.commands, "with --syscalls: processes of this command name; repeatable")
        ->allow_extra_args(false)
        ->needs(syscallsFlag);
    unsigned callsBlockMs = 250;
    app.add_option("--calls-block-ms", callsBlockMs,
                   "with --syscalls: write the calls recorded at least this often (tcpscope-cli capture asks 50)")
        ->check(CLI::Range(10U, 10000U))
        ->capture_default_str()
        ->needs(syscallsFlag);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        const int shown = app.exit(error);
        return shown == 0 ? 0 : helperexit::kUsage;
    }
    if (syscalls) {
        RecordingOptions recording;
        const auto batchTimeoutMs = recording.capture.batchTimeoutMs;
        recording.capture = options;
        recording.capture.batchTimeoutMs = batchTimeoutMs;
        recording.processes = processes;
        recording.callBlockInterval = std::chrono::milliseconds(callsBlockMs);
        return record(std::move(recording), statsFd);
    }
    return capture(options, statsFd);
}
