#pragma once
// Runs an external program without a shell and captures what it prints, for the CLI golden tests and
// the tshark cross-checks. Arguments go straight to execvp, so file names with spaces, quotes or
// shell metacharacters are passed through untouched.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcpscope::test {

/// What a finished command left behind.
struct CommandResult {
    bool started = false;     ///< false when the program could not be executed at all (see `error`)
    int exitCode = -1;        ///< exit status; -1 when it did not exit normally (killed by a signal)
    int signal = 0;           ///< the signal that ended it, 0 if it exited normally
    std::string out;          ///< everything it wrote to stdout
    std::string err;          ///< everything it wrote to stderr
    std::string error;        ///< why it could not be started, when `started` is false

    /// True when the program ran and exited with status 0.
    bool ok() const { return started && exitCode == 0; }
};

/// Options for runCommand.
struct CommandOptions {
    /// Variables set (or overridden) in the child's environment; the rest is inherited.
    std::map<std::string, std::string> environment{};
    /// stdout beyond this many bytes is read and dropped, so a runaway program cannot exhaust memory.
    std::size_t maxOutputBytes = std::size_t{1} << 30;
};

/// Runs `argv[0]` (looked up in PATH when it has no '/') with `argv[1..]` as its arguments and waits for it.
/// stdin is /dev/null. Never throws for a program that fails; returns started=false if it cannot be run.
CommandResult runCommand(const std::vector<std::string>& argv, const CommandOptions& options = {});

/// The first executable called `name` in PATH, if any.
std::optional<std::filesystem::path> findInPath(std::string_view name);

/// The command line quoted for a human reader (error messages only; never pass it to a shell).
std::string describeCommand(const std::vector<std::string>& argv);

}  // namespace tcpscope::test
