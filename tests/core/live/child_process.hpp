#pragma once
// A program started in the background, for the live capture tests: it runs while the test
// captures, can be sent a signal, and leaves what it printed when it is waited for.
#include <sys/types.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/cli/run_command.hpp"

namespace tcpscope::test {

class ChildProcess {
public:
    /// Starts `argv` (looked up in PATH) with stdin on /dev/null and stdout and stderr read in the
    /// background. Throws std::runtime_error if it cannot be started.
    explicit ChildProcess(const std::vector<std::string>& argv);
    /// Kills the program if it still runs.
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    void sendSignal(int signal) const;
    /// Waits for the program to end (killing it after `timeoutSeconds`) and returns its output.
    CommandResult wait(double timeoutSeconds = 30);
    /// What it wrote on stdout so far (read from another thread: call only to poll for a line).
    [[nodiscard]] std::string outputSoFar() const;
    /// What it wrote on stderr so far.
    [[nodiscard]] std::string errorsSoFar() const;
    /// Waits up to `timeoutSeconds` for `text` to appear on stdout (or stderr); true if it did.
    bool waitForOutput(const std::string& text, double timeoutSeconds, bool onStderr = false) const;

private:
    void joinReaders();

    pid_t pid_ = -1;
    std::thread reader_;
    std::thread errorReader_;
    CommandResult result_;
    mutable std::mutex outputMutex_;
};

}  // namespace tcpscope::test
