#include "run_command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace tcpscope::test {
namespace {

/// A pipe whose ends close themselves.
struct Pipe {
    int readEnd = -1;
    int writeEnd = -1;

    bool open() {
        std::array<int, 2> fds{};
        if (pipe2(fds.data(), O_CLOEXEC) != 0) {
            return false;
        }
        readEnd = fds[0];
        writeEnd = fds[1];
        return true;
    }
    static void closeFd(int& fd) {
        if (fd >= 0) {
            ::close(fd);
            fd = -1;
        }
    }
    ~Pipe() {
        closeFd(readEnd);
        closeFd(writeEnd);
    }
};

/// The environment of this process with `overrides` applied, as "NAME=value" strings.
std::vector<std::string> childEnvironment(const std::map<std::string, std::string>& overrides) {
    std::vector<std::string> result;
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const std::string_view text(*entry);
        const auto equals = text.find('=');
        const std::string name(text.substr(0, equals));
        if (!overrides.contains(name)) {
            result.emplace_back(text);
        }
    }
    for (const auto& [name, value] : overrides) {
        result.push_back(name + "=" + value);
    }
    return result;
}

std::vector<char*> pointersTo(std::vector<std::string>& strings) {
    std::vector<char*> pointers;
    pointers.reserve(strings.size() + 1);
    for (auto& text : strings) {
        pointers.push_back(text.data());
    }
    pointers.push_back(nullptr);
    return pointers;
}

/// Reads stdout and stderr of the child until both are closed, without letting either pipe fill up.
void drain(int outFd, int errFd, std::size_t maxOutputBytes, CommandResult& result) {
    std::array<pollfd, 2> fds{pollfd{outFd, POLLIN, 0}, pollfd{errFd, POLLIN, 0}};
    std::array<char, 65536> buffer{};
    int open = 2;
    while (open > 0) {
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            return;
        }
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) {
                continue;
            }
            const ssize_t got = ::read(fds[i].fd, buffer.data(), buffer.size());
            if (got < 0 && errno == EINTR) {
                continue;
            }
            if (got <= 0) {
                fds[i].fd = -1;  // EOF or error: stop polling this one
                --open;
                continue;
            }
            std::string& sink = i == 0 ? result.out : result.err;
            const std::size_t room = sink.size() < maxOutputBytes ? maxOutputBytes - sink.size() : 0;
            sink.append(buffer.data(), std::min(room, static_cast<std::size_t>(got)));
        }
    }
}

}  // namespace

std::optional<std::filesystem::path> findInPath(std::string_view name) {
    if (name.find('/') != std::string_view::npos) {
        return ::access(std::string(name).c_str(), X_OK) == 0 ? std::optional(std::filesystem::path(name))
                                                              : std::nullopt;
    }
    const char* path = std::getenv("PATH");
    std::string_view remaining = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
        const auto colon = remaining.find(':');
        const std::string_view directory = remaining.substr(0, colon);
        std::filesystem::path candidate = std::filesystem::path(directory.empty() ? "." : directory) / name;
        std::error_code ec;
        if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
        if (colon == std::string_view::npos) {
            return std::nullopt;
        }
        remaining.remove_prefix(colon + 1);
    }
}

std::string describeCommand(const std::vector<std::string>& argv) {
    std::string text;
    for (const auto& argument : argv) {
        if (!text.empty()) {
            text += ' ';
        }
        const bool plain = !argument.empty() &&
                           argument.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;!#~") == std::string::npos;
        if (plain) {
            text += argument;
            continue;
        }
        text += '\'';
        for (const char c : argument) {
            if (c == '\'') {
                text += "'\\''";
            } else {
                text += c;
            }
        }
        text += '\'';
    }
    return text;
}

CommandResult runCommand(const std::vector<std::string>& argv, const CommandOptions& options) {
    CommandResult result;
    if (argv.empty()) {
        result.error = "empty command";
        return result;
    }
    const auto program = findInPath(argv.front());
    if (!program) {
        result.error = argv.front() + ": not found in PATH or not executable";
        return result;
    }

    // Everything the child needs is prepared here: after fork() it only calls async-signal-safe functions.
    std::string programPath = program->string();
    std::vector<std::string> arguments = argv;
    std::vector<std::string> environment = childEnvironment(options.environment);
    std::vector<char*> argumentPointers = pointersTo(arguments);
    std::vector<char*> environmentPointers = pointersTo(environment);

    Pipe out;
    Pipe err;
    Pipe execStatus;  // carries errno from a failed execve; closed by a successful one (O_CLOEXEC)
    if (!out.open() || !err.open() || !execStatus.open()) {
        result.error = std::string("pipe: ") + std::strerror(errno);
        return result;
    }

    const pid_t child = ::fork();
    if (child < 0) {
        result.error = std::string("fork: ") + std::strerror(errno);
        return result;
    }
    if (child == 0) {
        const int devNull = ::open("/dev/null", O_RDONLY);
        if (devNull >= 0) {
            ::dup2(devNull, STDIN_FILENO);
        }
        ::dup2(out.writeEnd, STDOUT_FILENO);
        ::dup2(err.writeEnd, STDERR_FILENO);
        ::execve(programPath.c_str(), argumentPointers.data(), environmentPointers.data());
        const int failure = errno;
        [[maybe_unused]] const ssize_t ignored = ::write(execStatus.writeEnd, &failure, sizeof failure);
        ::_exit(127);
    }

    Pipe::closeFd(out.writeEnd);
    Pipe::closeFd(err.writeEnd);
    Pipe::closeFd(execStatus.writeEnd);

    int execErrno = 0;
    ssize_t got = 0;
    do {
        got = ::read(execStatus.readEnd, &execErrno, sizeof execErrno);
    } while (got < 0 && errno == EINTR);
    const bool execFailed = got == static_cast<ssize_t>(sizeof execErrno);

    drain(out.readEnd, err.readEnd, options.maxOutputBytes, result);

    int status = 0;
    while (::waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            result.error = std::string("waitpid: ") + std::strerror(errno);
            return result;
        }
    }
    if (execFailed) {
        result.error = programPath + ": " + std::strerror(execErrno);
        return result;
    }
    result.started = true;
    if (WIFEXITED(status)) {
        result.exitCode = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result.signal = WTERMSIG(status);
    }
    return result;
}

}  // namespace tcpscope::test
