// Findings by cause and endpoint pair: the same stall on many connections between one client host
// and one server endpoint reads as one line of the text report and one entry of finding_groups.
#include <cstdint>
#include <sstream>
#include <vector>

#include <catch2/catch.hpp>

#include "report/finding_groups.hpp"
#include "report/text_report.hpp"
#include "support/sequence_capture.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

constexpr size_t kSourcePort = 14 + 20;  // Ethernet + IPv4 header without options
constexpr size_t kDestinationPort = kSourcePort + 2;

uint16_t portAt(const std::vector<uint8_t>& bytes, size_t offset) {
    return static_cast<uint16_t>((bytes[offset] << 8) | bytes[offset + 1]);
}

void setPortAt(std::vector<uint8_t>& bytes, size_t offset, uint16_t port) {
    bytes[offset] = static_cast<uint8_t>(port >> 8);
    bytes[offset + 1] = static_cast<uint8_t>(port & 0xFF);
}

// The Nagle conversation again `delayS` later, from client port `clientPort` to server port `serverPort`.
std::vector<BuiltPacket> nagleFrom(uint16_t clientPort, uint16_t serverPort, double delayS) {
    std::vector<BuiltPacket> packets = nagleConversation();
    for (BuiltPacket& packet : packets) {
        for (const size_t offset : {kSourcePort, kDestinationPort}) {
            const uint16_t port = portAt(packet.bytes, offset);
            setPortAt(packet.bytes, offset, port == 40000 ? clientPort : serverPort);
        }
        packet.tsNs += static_cast<int64_t>(delayS * 1e9);
    }
    return packets;
}

}  // namespace

TEST_CASE("stalls between one client host and one server endpoint make one group", "[report][groups]") {
    std::vector<BuiltPacket> packets;
    for (const auto& part : {nagleFrom(40000, 3306, 0), nagleFrom(40001, 3306, 10), nagleFrom(40002, 3307, 20),
                             nagleFrom(40003, 3306, 30)}) {
        packets.insert(packets.end(), part.begin(), part.end());
    }
    const CaptureAnalysis analysis = analyzeBuilt(packets);
    REQUIRE(analysis.findings.size() == 4);

    const FindingGroups groups = groupFindings(analysis);
    REQUIRE(groups.size() == 2);
    CHECK(groups[0].kind == FindingKind::DelayedAckStall);
    CHECK(groups[0].client == "10.0.0.1");
    CHECK(groups[0].server == "10.0.0.2:3306");
    CHECK(groups[0].findings.size() == 3);
    CHECK(groups[0].durationMs == Approx(analysis.findings[0].durationMs + analysis.findings[1].durationMs +
                                         analysis.findings[3].durationMs));
    CHECK(groups[1].server == "10.0.0.2:3307");
    CHECK(groups[1].findings == std::vector<size_t>{2});

    std::ostringstream text;
    writeAnalysisText(text, analysis);
    CHECK(text.str().find("Findings (4, in 2 groups by cause and endpoint pair)") != std::string::npos);
    CHECK(text.str().find("10.0.0.1 -> 10.0.0.2:3306: 3 connections") != std::string::npos);
}
