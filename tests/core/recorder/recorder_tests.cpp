// The recorder on this machine: a child process's loopback exchange (connect, write, write, read;
// accept, read, write on the other end) recorded with its packets into one pcapng, read back tied
// to the right connection, and read by tshark. Needs root, BPF and tracefs: skips saying why.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "investigation/investigation.hpp"
#include "recorded/recorded_calls_reader.hpp"
#include "recorder/capture_recording.hpp"
#include "recorder/process_details.hpp"
#include "support/recorder_check.hpp"

using namespace tcpscope;

namespace {

// The child: a server and a client on loopback in one process; the client writes twice then reads
// (Nagle on), the server reads the 200 bytes and answers 50. Returns the exit status to use.
int exchange(int startPipe, uint16_t& serverPort) {
    char go = 0;
    if (::read(startPipe, &go, 1) != 1) {
        return 10;
    }
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 || ::listen(listener, 1) != 0 ||
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        return 11;
    }
    serverPort = ntohs(address.sin_port);
    const int client = ::socket(AF_INET, SOCK_STREAM, 0);
    const int nodelay = 0;
    ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &nodelay, sizeof(nodelay));
    if (::connect(client, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
        return 12;
    }
    const int server = ::accept(listener, nullptr, nullptr);
    char buffer[256] = {};
    if (::write(client, buffer, 100) != 100 || ::write(client, buffer, 100) != 100) {
        return 13;
    }
    size_t received = 0;
    while (received < 200) {
        const ssize_t got = ::read(server, buffer, sizeof(buffer));
        if (got <= 0) {
            return 14;
        }
        received += static_cast<size_t>(got);
    }
    if (::write(server, buffer, 50) != 50 || ::read(client, buffer, sizeof(buffer)) != 50) {
        return 15;
    }
    ::close(client);
    ::close(server);
    ::close(listener);
    return 0;
}

}  // namespace

TEST_CASE("recorder: a child's loopback write-write-read recorded, tied to its connection, read by tshark",
          "[recorder][root]") {
    if (const std::string why = test::whyNoSyscallRecorder(); !why.empty()) {
        WARN("test skipped: " << why);
        return;
    }
    int pipeFds[2] = {-1, -1};
    REQUIRE(::pipe(pipeFds) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        ::close(pipeFds[1]);
        uint16_t port = 0;
        const int status = exchange(pipeFds[0], port);
        // Alive a little longer, so that the recorder finds its command line and cgroup in /proc.
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        std::_Exit(status);
    }
    ::close(pipeFds[0]);
    const std::string path = (std::filesystem::temp_directory_path() / "tcpscope-recorder-test.pcapng").string();
    RecordingOptions options;
    options.capture.device = "lo";
    options.capture.filter = "tcp";
    options.path = path;
    options.processes.pids = {static_cast<uint32_t>(child)};
    RecordingSummary summary;
    {
        CaptureRecording recording(options);
        std::thread recorder([&] { summary = recording.run(std::nullopt); });
        REQUIRE(::write(pipeFds[1], "g", 1) == 1);
        int status = 0;
        ::waitpid(child, &status, 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        recording.stop();
        recorder.join();
        REQUIRE(WIFEXITED(status));
        REQUIRE(WEXITSTATUS(status) == 0);
    }
    ::close(pipeFds[1]);
    CHECK(summary.lostCalls == 0);
    CHECK(summary.packets >= 10);

    const std::optional<RecordedCalls> calls = readRecordedCalls(path);
    REQUIRE(calls);
    CHECK(calls->clock.size() == 2);
    const RecordedCall* connect = nullptr;
    const RecordedCall* accept = nullptr;
    int clientWrites = 0;
    int clientReads = 0;
    for (const RecordedCall& call : calls->calls) {
        CHECK(call.pid == static_cast<uint32_t>(child));
        if (call.name == RecordedCallName::connect) {
            connect = &call;
        } else if (call.name == RecordedCallName::accept || call.name == RecordedCallName::accept4) {
            accept = &call;
        }
    }
    REQUIRE(connect != nullptr);
    REQUIRE(accept != nullptr);
    CHECK(connect->result == 0);
    CHECK(connect->local.toString().starts_with("127.0.0.1:"));
    // The accepted socket is the other end of the connected one.
    CHECK(accept->local == connect->remote);
    CHECK(accept->remote == connect->local);
    for (const RecordedCall& call : calls->calls) {
        if (call.hasSocket && call.local == connect->local && call.remote == connect->remote) {
            if (call.name == RecordedCallName::write) {
                ++clientWrites;
                CHECK(call.sizeBytes == 100);
                CHECK(call.result == 100);
            } else if (call.name == RecordedCallName::read) {
                ++clientReads;
                CHECK(call.result == 50);
            }
        }
    }
    CHECK(clientWrites == 2);
    CHECK(clientReads == 1);

    // The investigation ties both ends' sockets to the one connection of the capture.
    InvestigationInputs inputs;
    inputs.captures = {path};
    const Investigation investigation = investigate(inputs);
    REQUIRE(investigation.alignment);
    // ... and the packets' comments put the child on both ends of that connection.
    const ConnectionProcesses& processes = investigation.analysis.engine->processes();
    const ProcessDetails self = readProcessDetails(static_cast<uint32_t>(::getpid()));
    int tied = 0;
    for (const TracedSocket& socket : investigation.alignment->sockets) {
        if (socket.connection == kNoConnection) {
            continue;
        }
        ++tied;
        const ConnectionProcesses::End* end = processes.of(socket.connection, socket.side);
        REQUIRE(end != nullptr);
        REQUIRE(end->known());
        const PacketProcess& process = processes.process(end->first);
        CHECK(process.pid == child);
        CHECK(process.thread == child);
        // From /proc: the child's command line is this test program's, its parent this process.
        CHECK(process.args == self.args);
        CHECK(process.parentPid == ::getpid());
        CHECK(process.cgroup == self.cgroup);
    }
    CHECK(tied == 2);

    if (std::system("command -v tshark >/dev/null 2>&1") == 0) {
        const std::string command = "tshark -r '" + path + "' >/dev/null 2>&1";
        CHECK(std::system(command.c_str()) == 0);
    } else {
        WARN("tshark not found: the recorded file was not read by tshark");
    }
    std::filesystem::remove(path);
}

TEST_CASE("process details: this process's command line, parent and cgroup, as /proc says them", "[recorder]") {
    const ProcessDetails self = readProcessDetails(static_cast<uint32_t>(::getpid()));
    // The program's path is the command line's first word.
    CHECK(self.args.rfind(std::filesystem::read_symlink("/proc/self/exe").filename().string()) != std::string::npos);
    CHECK(self.args.find('\0') == std::string::npos);
    CHECK(self.parentPid == static_cast<uint32_t>(::getppid()));
    CHECK_FALSE(self.parentCommand.empty());
    CHECK(self.cgroup.rfind('/', 0) == 0);
    // A process that is gone has nothing to say.
    const ProcessDetails gone = readProcessDetails(0x7fffffff);
    CHECK(gone.args.empty());
    CHECK(gone.parentPid == 0);
    CHECK(gone.cgroup.empty());
}
