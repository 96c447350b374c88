#include "core/live/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace tcpscope::test {

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
    std::array<int, 2> out{};
    std::array<int, 2> err{};
    if (::pipe2(out.data(), O_CLOEXEC) != 0 || ::pipe2(err.data(), O_CLOEXEC) != 0) {
        throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    // The test program may block signals in some thread; the child starts with none blocked.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
    std::vector<char*> pointers;
    for (const std::string& argument : argv) {
        pointers.push_back(const_cast<char*>(argument.c_str()));
    }
    pointers.push_back(nullptr);
    const int spawned = posix_spawnp(&pid_, argv.at(0).c_str(), &actions, &attributes, pointers.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(out[1]);
    ::close(err[1]);
    if (spawned != 0) {
        ::close(out[0]);
        ::close(err[0]);
        pid_ = -1;
        throw std::runtime_error("cannot start " + describeCommand(argv) + ": " + std::strerror(spawned));
    }
    result_.started = true;
    // One blocking reader per pipe, so that neither fills up while the program runs.
    auto readAll = [this](int fd, std::string CommandResult::*sink) {
        std::array<char, 65536> buffer{};
        ssize_t got = 0;
        while ((got = ::read(fd, buffer.data(), buffer.size())) > 0 || (got < 0 && errno == EINTR)) {
            const std::lock_guard lock(outputMutex_);
            (result_.*sink).append(buffer.data(), static_cast<size_t>(std::max<ssize_t>(got, 0)));
        }
        ::close(fd);
    };
    reader_ = std::thread(readAll, out[0], &CommandResult::out);
    errorReader_ = std::thread(readAll, err[0], &CommandResult::err);
}

ChildProcess::~ChildProcess() {
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        wait(0);
    }
    joinReaders();
}

void ChildProcess::joinReaders() {
    for (std::thread* reader : {&reader_, &errorReader_}) {
        if (reader->joinable()) {
            reader->join();
        }
    }
}

void ChildProcess::sendSignal(int signal) const {
    if (pid_ > 0) {
        ::kill(pid_, signal);
    }
}

CommandResult ChildProcess::wait(double timeoutSeconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
    int status = 0;
    while (pid_ > 0) {
        const pid_t done = ::waitpid(pid_, &status, WNOHANG);
        if (done == pid_) {
            pid_ = -1;
            break;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, &status, 0);
            pid_ = -1;
            result_.error = "killed after the timeout";
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    joinReaders();
    if (WIFEXITED(status)) {
        result_.exitCode = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result_.signal = WTERMSIG(status);
    }
    return result_;
}

std::string ChildProcess::outputSoFar() const {
    const std::lock_guard lock(outputMutex_);
    return result_.out;
}

}  // namespace tcpscope::test

namespace tcpscope::test {

std::string ChildProcess::errorsSoFar() const {
    const std::lock_guard lock(outputMutex_);
    return result_.err;
}

bool ChildProcess::waitForOutput(const std::string& text, double timeoutSeconds, bool onStderr) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
    while (std::chrono::steady_clock::now() < deadline) {
        if ((onStderr ? errorsSoFar() : outputSoFar()).find(text) != std::string::npos) {
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

}  // namespace tcpscope::test
