#include "live/helper_capture.hpp"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "live/live_error.hpp"

extern char** environ;

namespace tcpscope {

namespace {

constexpr int kHelperStatsFd = 3;             // where the helper writes its counters
constexpr size_t kMaxMessageBytes = 4096;     // the helper's stderr kept for error messages

struct Pipe {
    int read = -1;
    int write = -1;

    Pipe() {
        std::array<int, 2> fds{};
        if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
            throw LiveCaptureError(LiveErrorKind::Other, std::string("cannot create a pipe: ") + std::strerror(errno));
        }
        read = fds[0];
        write = fds[1];
    }
    void closeWrite() {
        if (write >= 0) {
            ::close(write);
            write = -1;
        }
    }
};

LiveErrorKind kindOfExit(int status) {
    switch (status) {
    case helperexit::kPermissionDenied:
        return LiveErrorKind::PermissionDenied;
    case helperexit::kNoSuchDevice:
        return LiveErrorKind::NoSuchDevice;
    case helperexit::kBadFilter:
        return LiveErrorKind::BadFilter;
    default:
        return LiveErrorKind::Other;
    }
}

// The group that owns the helper (whose members may run it), "tcpscope" if it cannot be told.
std::string groupOf(const std::string& path) {
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0 && status.st_gid != 0) {
        if (const group* entry = ::getgrgid(status.st_gid); entry != nullptr) {
            return entry->gr_name;
        }
    }
    return "tcpscope";
}

std::vector<std::string> helperArguments(const std::string& helperPath, const LiveCaptureOptions& options,
                                         const std::optional<HelperSyscalls>& syscalls) {
    std::vector<std::string> arguments{helperPath,
                                       "-i",
                                       options.device,
                                       "--snaplen",
                                       std::to_string(options.snapLength),
                                       "--buffer-bytes",
                                       std::to_string(options.bufferBytes),
                                       "--stats-fd",
                                       std::to_string(kHelperStatsFd)};
    if (!options.filter.empty()) {
        arguments.insert(arguments.end(), {"--filter", options.filter});
    }
    if (options.promiscuous) {
        arguments.emplace_back("--promiscuous");
    }
    if (syscalls) {
        arguments.insert(arguments.end(),
                         {"--syscalls", "--calls-block-ms", std::to_string(syscalls->blockInterval.count())});
        for (const uint32_t pid : syscalls->pids) {
            arguments.insert(arguments.end(), {"--pid", std::to_string(pid)});
        }
        for (const std::string& command : syscalls->commands) {
            arguments.insert(arguments.end(), {"--comm", command});
        }
    }
    return arguments;
}

}  // namespace

std::string formatHelperStats(const CaptureStats& stats) {
    return fmt::format("captured={} dropped_kernel={} dropped_interface={}\n", stats.captured, stats.droppedByKernel,
                       stats.droppedByInterface);
}

bool parseHelperStats(const std::string& line, CaptureStats& stats) {
    uint64_t captured = 0;
    uint64_t kernel = 0;
    uint64_t interface = 0;
    if (std::sscanf(line.c_str(), "captured=%" SCNu64 " dropped_kernel=%" SCNu64 " dropped_interface=%" SCNu64,
                    &captured, &kernel, &interface) != 3) {
        return false;
    }
    stats = {captured, kernel, interface};
    return true;
}

HelperCapture::HelperCapture(const std::string& helperPath, const LiveCaptureOptions& options,
                             std::optional<HelperSyscalls> syscalls)
    : helperPath_(helperPath) {
    description_.device = options.device;
    description_.filter = options.filter;
    description_.snapLength = options.snapLength;
    description_.nanosecond = true;  // the helper writes if_tsresol=9
    description_.viaHelper = true;

    Pipe packets;
    Pipe stats;
    Pipe errors;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, packets.write, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, errors.write, STDERR_FILENO);
    posix_spawn_file_actions_adddup2(&actions, stats.write, kHelperStatsFd);
    const std::vector<std::string> arguments = helperArguments(helperPath, options, syscalls);
    std::vector<char*> argv;
    for (const std::string& argument : arguments) {
        argv.push_back(const_cast<char*>(argument.c_str()));
    }
    argv.push_back(nullptr);
    const int spawned = posix_spawn(&pid_, helperPath.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    packets.closeWrite();
    stats.closeWrite();
    errors.closeWrite();
    if (spawned != 0) {
        pid_ = -1;
        ::close(packets.read);
        ::close(stats.read);
        ::close(errors.read);
        const bool denied = spawned == EACCES || spawned == EPERM;
        throw LiveCaptureError(
            denied ? LiveErrorKind::PermissionDenied : LiveErrorKind::Other,
            fmt::format("cannot run the capture helper {}: {}{}", helperPath, std::strerror(spawned),
                        denied ? fmt::format("; it is meant to be run by the members of its group: sudo usermod -aG "
                                             "{} $USER, then log in again",
                                             groupOf(helperPath))
                               : ""));
    }
    sideChannels_ = std::thread([this, statsFd = stats.read, errorFd = errors.read] {
        readSideChannels(statsFd, errorFd);
    });
    try {
        reader_ = CaptureReader::open(fmt::format("/dev/fd/{}", packets.read));
    } catch (const CaptureError& error) {
        ::close(packets.read);
        failWithHelperMessage(reap(), error.what());
    }
    if (syscalls && syscalls->onCustomBlock) {
        reader_->setCustomBlockListener(std::move(syscalls->onCustomBlock));
    }
    ::close(packets.read);  // the reader opened its own descriptor of the pipe
}

HelperCapture::~HelperCapture() {
    reader_.reset();  // the helper sees a closed pipe if it is still writing
    stop();
    reap();
    if (sideChannels_.joinable()) {
        sideChannels_.join();
    }
}

void HelperCapture::readSideChannels(int statsFd, int errorFd) {
    std::string statsLine;
    std::array<pollfd, 2> fds{pollfd{statsFd, POLLIN, 0}, pollfd{errorFd, POLLIN, 0}};
    int open = 2;
    std::array<char, 4096> chunk{};
    while (open > 0) {
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        for (pollfd& fd : fds) {
            if (fd.fd < 0 || fd.revents == 0) {
                continue;
            }
            const ssize_t got = ::read(fd.fd, chunk.data(), chunk.size());
            if (got <= 0) {
                ::close(fd.fd);
                fd.fd = -1;
                --open;
                continue;
            }
            const std::string_view text(chunk.data(), static_cast<size_t>(got));
            if (fd.fd == statsFd) {
                statsLine.append(text);
                for (size_t end = statsLine.find('\n'); end != std::string::npos; end = statsLine.find('\n')) {
                    CaptureStats counters;
                    if (parseHelperStats(statsLine.substr(0, end), counters)) {
                        droppedByKernel_.store(counters.droppedByKernel, std::memory_order_relaxed);
                        droppedByInterface_.store(counters.droppedByInterface, std::memory_order_relaxed);
                    }
                    statsLine.erase(0, end + 1);
                }
            } else {
                const std::lock_guard lock(messagesMutex_);
                messages_.append(text);
                if (messages_.size() > kMaxMessageBytes) {
                    messages_.erase(0, messages_.size() - kMaxMessageBytes);
                }
            }
        }
    }
}

int HelperCapture::reap() {
    pid_t pid = 0;
    {
        const std::lock_guard lock(pidMutex_);
        pid = pid_;
    }
    if (pid <= 0) {
        return 0;
    }
    // Wait without reaping first, so that stop() never signals a process id that was reused.
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
    }
    int status = 0;
    {
        const std::lock_guard lock(pidMutex_);
        ::waitpid(pid, &status, 0);
        pid_ = -1;
    }
    if (sideChannels_.joinable()) {
        sideChannels_.join();  // the helper's pipes are closed now
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void HelperCapture::failWithHelperMessage(int status, const std::string& fallback) {
    std::string message = this->messages();
    while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) {
        message.pop_back();
    }
    // The helper's last line says what went wrong, in a form meant for the user.
    if (const size_t lastLine = message.rfind('\n'); lastLine != std::string::npos) {
        message.erase(0, lastLine + 1);
    }
    if (message.empty()) {
        message = fmt::format("the capture helper {} ended with status {}: {}", helperPath_, status, fallback);
    }
    throw LiveCaptureError(kindOfExit(status), message);
}

void HelperCapture::run(PacketSink& sink) {
    RawPacket packet;
    while (reader_->next(packet)) {
        if (description_.linkType == 0) {
            description_.linkType = packet.linkType;
        }
        captured_.fetch_add(1, std::memory_order_relaxed);
        sink.onPacket(packet);
        sink.onBatchEnd();  // the helper already writes in batches: keep the file as current as the pipe
    }
    const InputProblem* problem = reader_->error();
    const std::string streamError = problem != nullptr ? problem->describe() : std::string();
    const int status = reap();
    const bool stoppedByUs = stopSent_.load() && (status == helperexit::kOk || status == 128 + SIGTERM);
    if (status != helperexit::kOk && !stoppedByUs) {
        failWithHelperMessage(status, streamError.empty() ? "the stream ended early" : streamError);
    }
    if (!streamError.empty()) {
        throw LiveCaptureError(LiveErrorKind::Other, streamError);
    }
}

void HelperCapture::stop() {
    const std::lock_guard lock(pidMutex_);
    if (pid_ > 0 && !stopSent_.exchange(true)) {
        ::kill(pid_, SIGTERM);
    }
}

CaptureStats HelperCapture::stats() const {
    return {captured_.load(std::memory_order_relaxed), droppedByKernel_.load(std::memory_order_relaxed),
            droppedByInterface_.load(std::memory_order_relaxed)};
}

std::string HelperCapture::messages() const {
    const std::lock_guard lock(messagesMutex_);
    return messages_;
}

}  // namespace tcpscope
