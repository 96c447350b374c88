// An strace log that does not belong with the capture is an error with its own exit code (5) and
// one line saying why: a text that is no strace log, a log of another day, a log of another
// capture. The log that belongs with it is read as before.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "run_command.hpp"
#include "support/packet_builder.hpp"

using tcpscope::test::runCommand;

namespace {

namespace fs = std::filesystem;

const std::string kSamples = TCPSCOPE_SOURCE_DIR "/samples/";
constexpr int kExitStraceMismatch = 5;

size_t lines(const std::string& text) {
    size_t count = 0;
    for (const char c : text) {
        count += c == '\n' ? 1 : 0;
    }
    return count;
}

// The -ttt log of the sample with every time a day later: the same calls, on another day.
fs::path logOfTheNextDay() {
    std::ifstream in(kSamples + "proxy-nagle-ttt.strace");
    std::ostringstream shifted;
    std::string line;
    while (std::getline(in, line)) {
        const size_t timeStart = line.find(' ') + 1;
        const size_t dot = line.find('.', timeStart);
        const long long seconds = std::stoll(line.substr(timeStart, dot - timeStart));
        shifted << line.substr(0, timeStart) << seconds + 86'400 << line.substr(dot) << '\n';
    }
    const fs::path path = tcpscope::test::uniqueTempPath("next-day", ".strace");
    std::ofstream(path) << shifted.str();
    return path;
}

}  // namespace

TEST_CASE("the strace log of the capture is read, one that does not fit it is an error of its own", "[cli][strace]") {
    const auto fitting = runCommand(
        {TCPSCOPE_CLI, "analyze", kSamples + "proxy-nagle.pcap", "--strace", kSamples + "proxy-nagle.strace"});
    CHECK(fitting.exitCode == 0);
    CHECK(fitting.err.empty());

    const fs::path text = tcpscope::test::uniqueTempPath("notes", ".txt");
    std::ofstream(text) << "Meeting notes\nThe proxy is slow on Mondays.\nAsk about TCP_NODELAY(3) = yes\n";
    const auto notStrace =
        runCommand({TCPSCOPE_CLI, "analyze", kSamples + "proxy-nagle.pcap", "--strace", text.string()});
    CHECK(notStrace.exitCode == kExitStraceMismatch);
    CHECK(notStrace.out.empty());
    CHECK(lines(notStrace.err) == 1);
    CHECK(notStrace.err.find(text.string() + ": not an strace log: ") != std::string::npos);
    fs::remove(text);

    const fs::path nextDay = logOfTheNextDay();
    const auto otherDay = runCommand({TCPSCOPE_CLI, "analyze", kSamples + "proxy-nagle-ttt.pcapng", "--strace",
                                      nextDay.string(), "--format", "json"});
    CHECK(otherDay.exitCode == kExitStraceMismatch);
    CHECK(otherDay.out.empty());
    CHECK(lines(otherDay.err) == 1);
    CHECK(otherDay.err.find("does not fit the capture: its ") != std::string::npos);
    CHECK(otherDay.err.find("with their clock moved by -24.0 h") != std::string::npos);
    fs::remove(nextDay);

    const auto otherCapture = runCommand(
        {TCPSCOPE_CLI, "flows", kSamples + "http-keepalive.pcap", "--strace", kSamples + "proxy-nagle.strace"});
    CHECK(otherCapture.exitCode == kExitStraceMismatch);
    CHECK(lines(otherCapture.err) == 1);
    CHECK(otherCapture.err.find("proxy-nagle.strace: does not fit the capture: ") != std::string::npos);
}

TEST_CASE("a log of connect() calls alone fits the capture whose server they name", "[cli][strace]") {
    // strace -e connect of the job client: no socket() in it, 3,004 of its calls fail with EADDRNOTAVAIL.
    const auto run = runCommand({TCPSCOPE_CLI, "analyze", kSamples + "seeds/jobs-port-exhaustion.pcap.gz", "--strace",
                                 kSamples + "seeds/jobs-port-exhaustion.strace.gz"});
    CHECK(run.exitCode == 0);
    CHECK(run.err.empty());
    CHECK(run.out.find("3004 connect() calls failing with EADDRNOTAVAIL") != std::string::npos);
}
