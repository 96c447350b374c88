// Sockets that neither -yy decorations nor a connect/accept in the log tie to a connection,
// matched by the byte counts and times of their calls: the proxy recorded with strace attached
// late (-p, no -y) and without -y from the start, the -yy log of proxy-nagle with its decorations
// and first part cut away (the same process, so the truth is known), and a log whose calls fit
// several connections equally and must be refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "align_test_helpers.hpp"

using namespace tcpscope;
using namespace tcpscope::testing;

namespace {

struct SsSocket {
    std::string local;
    std::string peer;
};

// `ss -tnpH` lines: "ESTAB 0 0 127.0.0.1:3307 127.0.0.1:45822 users:(("python3",pid=14662,fd=5))".
std::map<int, SsSocket> socketsFromSs(const std::string& path) {
    std::map<int, SsSocket> byFd;
    std::ifstream in(path);
    const std::regex line(R"(^\S+\s+\d+\s+\d+\s+(\S+)\s+(\S+)\s+users:.*fd=(\d+)\)\))");
    std::string text;
    while (std::getline(in, text)) {
        std::smatch match;
        if (std::regex_search(text, match, line)) {
            byFd[std::stoi(match[3])] = {match[1], match[2]};
        }
    }
    return byFd;
}

// The socket of `fd` tied to a connection, or null.
const TracedSocket* tiedSocket(const StraceAlignment& alignment, int32_t fd) {
    for (const TracedSocket& socket : alignment.sockets) {
        if (socket.fd == fd && socket.connection != kNoConnection) {
            return &socket;
        }
    }
    return nullptr;
}

// Every delayed-ACK stall whose held segment left while the trace ran is confirmed; returns how many.
int confirmedWhileTraced(const Aligned& result) {
    const StraceLog& log = result.alignment.logs[0].log;
    const int64_t tracedFromNs = result.alignment.captureTsNs(0, log.records.front());
    const PacketIndex& packets = result.capture.engine->packets();
    int confirmed = 0;
    for (const Finding& finding : result.capture.findings) {
        if (finding.kind != FindingKind::DelayedAckStall) {
            continue;
        }
        const std::vector<StraceVerdict>& verdicts = result.capture.enrichments.of(finding.id).straceVerdicts;
        REQUIRE(verdicts.size() == finding.spans.size());
        for (size_t index = 0; index < finding.spans.size(); ++index) {
            const uint32_t held = finding.spans[index].frames.of(FrameRole::HeldSegment).value_or(0);
            if (packets.tsNs(packets.positionOfFrame(held)) > tracedFromNs + 100'000'000) {
                INFO("held frame " << held);
                const bool isConfirmed = verdicts[index].verdict == StraceVerdictKind::Confirmed;
                CHECK(isConfirmed);
                confirmed += isConfirmed ? 1 : 0;
            }
        }
    }
    return confirmed;
}

// Decorations printed by -y/-yy ("6<TCP:[...]>", "4<anon_inode:[eventpoll]>", "3</usr/lib/...>").
std::string withoutDecorations(const std::string& line) {
    static const std::regex decoration(R"((\d)<(TCPv6|TCP|UDPv6|UDP|UNIX-STREAM|UNIX|NETLINK|socket|pipe|anon_inode):\[[^\]]*\]>|(\d)</[^>]*>)");
    return std::regex_replace(line, decoration, "$1$3");
}

}  // namespace

TEST_CASE("a trace attached late without -y ties each fd to the connection ss names for it", "[align][bytes]") {
    const Aligned result = align("proxy-nagle-late.pcap", {sample("proxy-nagle-late.strace")});
    const auto truth = socketsFromSs(sample("proxy-nagle-late.ss"));
    REQUIRE(truth.size() == 4);  // two accepted client connections, two to the backend
    const auto& connections = result.capture.engine->connections();
    for (const auto& [fd, endpoints] : truth) {
        INFO("fd " << fd << " " << endpoints.local << " -> " << endpoints.peer);
        const TracedSocket* socket = tiedSocket(result.alignment, fd);
        REQUIRE(socket != nullptr);
        CHECK(socket->match == SocketMatch::BytesTiming);
        CHECK_FALSE(socket->seenFromStart);
        const Connection& connection = connections[socket->connection];
        CHECK(connection.endpoint(socket->side).toString() == endpoints.local);
        CHECK(connection.endpoint(otherSide(socket->side)).toString() == endpoints.peer);
        CHECK(socket->byteTiming.contradictions == 0);
        CHECK(socket->runnerUpScore < socket->byteTiming.score * 0.75);  // 0.62 to 0.66 here
    }
    CHECK(result.alignment.ambiguous.empty());

    // No endpoints anywhere in the log: the clock came from the writes alone, and is right.
    const ClockFit& clock = result.alignment.logs[0].clock;
    CHECK(clock.searched);
    CHECK(clock.method == "writes");
    CHECK(clock.tzOffsetMinutes == 0);
    CHECK(std::abs(static_cast<double>(clock.residualNs)) < 1e6);  // within 1 ms on loopback
    CHECK(clock.matchedWrites >= 100);

    // The stalls the trace saw are confirmed by the writes that waited.
    CHECK(confirmedWhileTraced(result) >= 50);
}

TEST_CASE("the late trace's clock is found in another time zone and seconds off too", "[align][bytes]") {
    // UTC-05:00, on a host whose clock is 3 s ahead: the residual is the skew, back out.
    const std::string shifted = shiftedLog(sample("proxy-nagle-late.strace"), -300, 3);
    const Aligned result = align("proxy-nagle-late.pcap", {shifted});
    const ClockFit& clock = result.alignment.logs[0].clock;
    CHECK(clock.tzOffsetMinutes == -300);
    CHECK(std::abs(static_cast<double>(clock.residualNs) + 3e9) < 1e6);
    for (const auto& [fd, endpoints] : socketsFromSs(sample("proxy-nagle-late.ss"))) {
        const TracedSocket* socket = tiedSocket(result.alignment, fd);
        REQUIRE(socket != nullptr);
        CHECK(result.capture.engine->connections()[socket->connection].endpoint(socket->side).toString() ==
              endpoints.local);
    }
    std::filesystem::remove(shifted);
}

TEST_CASE("the -yy log cut and stripped of decorations maps every fd as -yy does", "[align][bytes]") {
    const Aligned reference = align("proxy-nagle.pcap", {sample("proxy-nagle.strace")});
    // As if strace -p had attached without -yy after the proxy's 30th send: no fd has a history.
    int sends = 0;
    const std::string cut = rewrittenLog(sample("proxy-nagle.strace"), "tcpscope-cut-noyy.strace",
                                         [&sends](const std::string& line) {
                                             sends += line.find(" sendto(") != std::string::npos ? 1 : 0;
                                             return sends > 30 ? withoutDecorations(line) : std::string();
                                         });
    const Aligned result = align("proxy-nagle.pcap", {cut});
    int tied = 0;
    for (const TracedSocket& socket : result.alignment.sockets) {
        if (socket.connection == kNoConnection) {
            continue;
        }
        ++tied;
        CHECK(socket.match == SocketMatch::BytesTiming);
        const TracedSocket* truth = tiedSocket(reference.alignment, socket.fd);
        REQUIRE(truth != nullptr);
        CHECK(socket.connection == truth->connection);
        CHECK(socket.side == truth->side);
    }
    CHECK(tied == 2);
    CHECK(std::llabs(result.alignment.logs[0].clock.offsetNs - reference.alignment.logs[0].clock.offsetNs) < 1'000'000);
    CHECK(confirmedWhileTraced(result) >= 60);
    std::filesystem::remove(cut);
}

TEST_CASE("without -y from the start, connect() and accept() tie the sockets", "[align][bytes]") {
    const Aligned result = align("proxy-nagle-noy.pcap", {sample("proxy-nagle-noy.strace")});
    const auto& connections = result.capture.engine->connections();
    REQUIRE(connections.size() == 4);
    for (uint32_t id = 0; id < connections.size(); ++id) {
        REQUIRE(result.alignment.connectionSockets[id].size() == 1);
        const TracedSocket& socket = result.alignment.sockets[result.alignment.connectionSockets[id][0]];
        const bool towardsClient = connections[id].server.port == 3307;
        CHECK(socket.match == (towardsClient ? SocketMatch::Accept : SocketMatch::Connect));
        CHECK(socket.side == (towardsClient ? Side::Server : Side::Client));
    }
    CHECK(std::abs(static_cast<double>(result.alignment.logs[0].clock.residualNs)) < 1e6);
    CHECK(stalls(result.capture) >= 50);
    CHECK(confirmedStalls(result.capture) == stalls(result.capture));
}

TEST_CASE("calls that fit several connections equally are refused, not guessed", "[align][bytes]") {
    // The late log without its times (strace -p without -t): both client connections carry the
    // same requests, both backend connections the same frames; only time told them apart.
    const std::regex stamp(R"(^(\d+) \d\d:\d\d:\d\d\.\d+ (.*?)( <\d+\.\d+>)?$)");
    const std::string untimed =
        rewrittenLog(sample("proxy-nagle-late.strace"), "tcpscope-untimed.strace",
                     [&stamp](const std::string& line) { return std::regex_replace(line, stamp, "$1 $2"); });
    const Aligned result = align("proxy-nagle-late.pcap", {untimed});
    REQUIRE(result.alignment.logs[0].log.format.timeBase == StraceTimeBase::None);
    CHECK(result.alignment.logs[0].clock.method == "none");  // nothing to put it on the capture's clock
    for (const TracedSocket& socket : result.alignment.sockets) {
        CHECK(socket.connection == kNoConnection);
    }
    REQUIRE(result.alignment.ambiguous.size() == 4);
    for (const AmbiguousSocket& refused : result.alignment.ambiguous) {
        CHECK(refused.candidates.size() >= 2);
    }
    std::filesystem::remove(untimed);
}
