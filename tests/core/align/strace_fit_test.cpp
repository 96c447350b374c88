// A log that does not belong with the capture is told apart from one that does: no strace log at
// all, calls on another day, sockets none of which is a connection of the capture.
#include "align/strace_fit.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "strace/strace_reader.hpp"

using namespace tcpscope;

namespace {

std::string sample(const std::string& name) {
    return (std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / name).string();
}

std::optional<StraceMismatch> mismatchOf(const std::string& text, const CaptureAnalysis& capture) {
    std::vector<AlignedLog> logs(1);
    logs.front().files = {"test.strace"};
    logs.front().log = parseStraceText(text);
    const StraceAlignment alignment = alignStraceLogs(std::move(logs), capture, {});
    return findStraceMismatch(alignment, *capture.engine);
}

}  // namespace

TEST_CASE("strace fit: the capture's own log fits, each kind of mismatch is said", "[align][strace-fit]") {
    AnalysisOptions options;
    options.engine.keepPacketIndex = true;
    const CaptureAnalysis capture = analyzeCaptures({sample("proxy-nagle-ttt.pcapng")}, options);
    const StraceAlignment own = loadStraceLogs({sample("proxy-nagle-ttt.strace")}, capture, {});
    CHECK_FALSE(findStraceMismatch(own, *capture.engine));

    const auto prose = mismatchOf("Dear team,\nthe proxy is slow again.\nwrite(1) = 1\nRegards\n", capture);
    REQUIRE(prose);
    CHECK(prose->kind == StraceMismatchKind::NotStrace);
    CHECK(prose->reason == "test.strace: not an strace log: 1 of its 4 lines are system calls as strace prints them");

    // The capture was taken in 2026 (epoch 1795231740): calls of 2023 come long before it.
    const auto earlier = mismatchOf(
        "100 1700000000.000100 socket(AF_INET, SOCK_STREAM, IPPROTO_TCP) = 3<TCP:[1]> <0.000010>\n"
        "100 1700000000.000200 connect(3<TCP:[1]>, {sa_family=AF_INET, sin_port=htons(9999), "
        "sin_addr=inet_addr(\"127.0.0.1\")}, 16) = 0 <0.000050>\n",
        capture);
    REQUIRE(earlier);
    CHECK(earlier->kind == StraceMismatchKind::NoOverlap);
    CHECK_THAT(earlier->reason, Catch::StartsWith("test.strace: does not fit the capture: its 2 calls end ") &&
                                    Catch::EndsWith(" s before the capture's first packet"));

    // In the capture's time, but no socket at all.
    const auto noSocket = mismatchOf(
        "100 1795231741.000000 openat(AT_FDCWD, \"/etc/hosts\", O_RDONLY) = 3 <0.000010>\n"
        "100 1795231741.000100 close(3) = 0 <0.000005>\n",
        capture);
    REQUIRE(noSocket);
    CHECK(noSocket->kind == StraceMismatchKind::NoSocketTied);
    CHECK_THAT(noSocket->reason, Catch::Contains("it shows no TCP socket"));
}
