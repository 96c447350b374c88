// Follow TCP Stream: the reassembly by sequence number on segments built in code, and `tcpscope-cli
// follow` against `tshark -z follow,tcp,raw` on the samples (skipped without tshark).
#include "dissect/tcp_stream_follow.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "app/cli/run_command.hpp"

namespace fs = std::filesystem;
using tcpscope::dissect::FollowedStream;
using tcpscope::dissect::StreamReassembler;

namespace {

std::vector<uint8_t> bytesOf(std::string_view text) {
    return {text.begin(), text.end()};
}

void add(StreamReassembler& reassembler, uint32_t frame, bool server, uint32_t seq, std::string_view text,
         uint8_t flags = 0x18) {
    const std::vector<uint8_t> bytes = bytesOf(text);
    reassembler.add(frame, server, seq, flags, static_cast<uint32_t>(bytes.size()), bytes);
}

/// Each direction's bytes of a `follow --format raw` (ours or tshark's): client lines, then the
/// server's (indented by a tab); gap lines are left out.
std::pair<std::string, std::string> rawDirections(const std::string& text) {
    std::pair<std::string, std::string> directions;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const bool server = !line.empty() && line[0] == '\t';
        const std::string hex = server ? line.substr(1) : line;
        if (hex.empty() || hex.find_first_not_of("0123456789abcdef") != std::string::npos) {
            continue;
        }
        (server ? directions.second : directions.first) += hex;
    }
    return directions;
}

}  // namespace

TEST_CASE("a stream is reassembled by sequence number, each byte once", "[dissect][follow]") {
    StreamReassembler reassembler;
    add(reassembler, 1, false, 999, "", 0x02);  // SYN: data starts at 1000
    add(reassembler, 2, true, 4999, "", 0x12);
    add(reassembler, 3, false, 1000, "GET / HTTP/1.1\r\n");
    add(reassembler, 4, false, 1000, "GET / HTTP/1.1\r\n");   // a retransmission adds nothing
    add(reassembler, 5, false, 1010, "/1.1\r\nHost: x\r\n");  // an overlap adds only its new bytes
    add(reassembler, 6, true, 5010, "world");                 // after a hole of 10 bytes: waits
    add(reassembler, 7, true, 5000, "hello, the");            // fills the hole
    add(reassembler, 8, true, 5030, "!");                     // after a hole nobody fills
    add(reassembler, 9, false, 1025, "\r\n");
    const FollowedStream stream = reassembler.finish();
    CHECK(stream.bytesOf(false) == bytesOf("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    CHECK(stream.bytesOf(true) == bytesOf("hello, theworld!"));
    CHECK(stream.clientBytes == 27);
    CHECK(stream.serverBytes == 16);
    CHECK(stream.serverMissing == 15);
    REQUIRE(stream.chunks.size() == 5);
    CHECK(stream.chunks[0].fromServer == false);
    CHECK(stream.chunks[1].bytes == bytesOf("hello, theworld"));
    CHECK(stream.chunks[1].frame == 7);
    CHECK(stream.chunks[2].missingBytes == 15);  // said when the client speaks again
    CHECK(stream.chunks[3].bytes == bytesOf("!"));
    CHECK(stream.chunks[4].bytes == bytesOf("\r\n"));
}

TEST_CASE("a segment cut by the snapshot length leaves its uncaptured bytes missing", "[dissect][follow]") {
    StreamReassembler reassembler;
    const std::vector<uint8_t> captured = bytesOf("abc");
    reassembler.add(1, false, 100, 0x18, 10, captured);
    reassembler.add(2, false, 110, 0x18, 3, captured);
    const FollowedStream stream = reassembler.finish();
    CHECK(stream.bytesOf(false) == bytesOf("abcabc"));
    CHECK(stream.clientMissing == 7);
}

TEST_CASE("tcpscope-cli follow gives tshark's bytes of each direction", "[dissect][follow][tshark]") {
    if (!tcpscope::test::findInPath("tshark")) {
        WARN("test skipped: tshark not found");
        return;
    }
    struct Case {
        const char* sample;
        uint32_t stream;
    };
    for (const Case& c : {Case{"rtt/rtt-defer-accept-client.pcap", 0}, Case{"rtt/rtt-bulk-cwnd.pcap", 0},
                          Case{"rtt/rtt-tls-like.pcap", 0}, Case{"http-keepalive.pcap", 1}, Case{"proxy-nagle.pcap", 0},
                          Case{"rtt/rtt-duplicated.pcapng", 0}, Case{"seeds/backlog-connrate-client.pcap.gz", 2}}) {
        INFO(c.sample << " stream " << c.stream);
        const std::string path = (fs::path(TCPSCOPE_SOURCE_DIR) / "samples" / c.sample).string();
        const auto ours =
            tcpscope::test::runCommand({TCPSCOPE_CLI, "follow", path, std::to_string(c.stream), "--format", "raw"});
        REQUIRE(ours.ok());
        const auto theirs = tcpscope::test::runCommand(
            {"tshark", "-q", "-n", "-r", path, "-z", "follow,tcp,raw," + std::to_string(c.stream)});
        REQUIRE(theirs.started);
        const auto ourDirections = rawDirections(ours.out);
        const auto theirDirections = rawDirections(theirs.out);
        CHECK(!(ourDirections.first + ourDirections.second).empty());
        CHECK(ourDirections.first == theirDirections.first);
        CHECK(ourDirections.second == theirDirections.second);
        CHECK(ours.out.find("Node 0: ") != std::string::npos);
    }
}
