// A capture in the year 3000 (past the 2262 that int64 nanoseconds end at), built in code two ways
// a pcapng file can say it: 64-bit microsecond counts, and an if_tsoffset. Its stall is found with
// its real duration, and every time written out is on the epoch's axis.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "capture/pcapng_writer.hpp"
#include "run_command.hpp"
#include "support/packet_builder.hpp"
#include "support/stall_conversation.hpp"

using namespace tcpscope;
using tcpscope::test::runCommand;

namespace {

namespace fs = std::filesystem;

constexpr int64_t kYear3000 = 32'503'680'000;  // 3000-01-01 00:00:00 UTC, seconds after the epoch

void put32(std::string& bytes, uint32_t value) {
    bytes.append(reinterpret_cast<const char*>(&value), 4);
}

// A little-endian pcapng block: type, length, body padded to 4 bytes, length.
std::string block(uint32_t type, std::string body) {
    body.resize((body.size() + 3) / 4 * 4, '\0');
    std::string bytes;
    put32(bytes, type);
    put32(bytes, static_cast<uint32_t>(body.size() + 12));
    bytes += body;
    put32(bytes, static_cast<uint32_t>(body.size() + 12));
    return bytes;
}

// Microsecond counts (the pcapng default) of the year 3000: no offset, only 64-bit units.
fs::path writeMicrosecondUnits() {
    std::string file;
    std::string section;
    put32(section, 0x1A2B3C4D);
    put32(section, 1);  // version 1.0
    put32(section, 0xFFFFFFFF);
    put32(section, 0xFFFFFFFF);  // section length unknown
    file += block(0x0A0D0D0A, section);
    std::string interface;
    put32(interface, linktype::kEthernet);
    put32(interface, 0);
    file += block(1, interface);
    for (const test::TimedFrame& frame : test::retransmissionStallFrames()) {
        const uint64_t units = static_cast<uint64_t>(kYear3000) * 1'000'000 + static_cast<uint64_t>(frame.atMs) * 1000;
        std::string packet;
        put32(packet, 0);
        put32(packet, static_cast<uint32_t>(units >> 32));
        put32(packet, static_cast<uint32_t>(units));
        put32(packet, static_cast<uint32_t>(frame.bytes.size()));
        put32(packet, static_cast<uint32_t>(frame.bytes.size()));
        packet.append(frame.bytes.begin(), frame.bytes.end());
        file += block(6, packet);
    }
    const fs::path path = test::uniqueTempPath("year-3000-units", ".pcapng");
    std::ofstream(path, std::ios::binary) << file;
    return path;
}

// The same packets as nanoseconds after an if_tsoffset of the year 3000, by tcpscope's own writer.
fs::path writeWithOffset() {
    const fs::path path = test::uniqueTempPath("year-3000-offset", ".pcapng");
    PcapngWriter writer(path.string(), PcapngSectionInfo{});
    PcapngInterfaceInfo interface;
    interface.linkType = linktype::kEthernet;
    interface.tsOffsetSeconds = kYear3000;
    const uint32_t id = writer.addInterface(interface);
    for (const test::TimedFrame& frame : test::retransmissionStallFrames()) {
        writer.writePacket(
            PcapngPacket{id, frame.atMs * 1'000'000, static_cast<uint32_t>(frame.bytes.size()), frame.bytes, {}});
    }
    writer.close();
    return path;
}

}  // namespace

TEST_CASE("a stall in the year 3000 is found with its duration, and its times are those of the year 3000",
          "[cli][timestamps]") {
    for (const fs::path& capture : {writeMicrosecondUnits(), writeWithOffset()}) {
        CAPTURE(capture.string());
        const auto json = runCommand({TCPSCOPE_CLI, "analyze", capture.string(), "--format", "json"});
        REQUIRE(json.exitCode == 0);
        CHECK(json.err.empty());
        const nlohmann::json report = nlohmann::json::parse(json.out);
        CHECK(report["capture"]["first_ts"].get<double>() == Approx(double(kYear3000)).margin(1e-3));
        CHECK(report["capture"]["last_ts"].get<double>() == Approx(double(kYear3000) + 1.211).margin(1e-3));
        REQUIRE(report["flows"].size() == 1);
        CHECK(report["flows"][0]["first_ts"].get<double>() == Approx(double(kYear3000)).margin(1e-3));
        size_t stalls = 0;
        for (const auto& finding : report["findings"]) {
            if (finding["kind"] == "retransmission_stall") {
                ++stalls;
                CHECK(finding["duration_ms"].get<double>() == Approx(1200));
                CHECK(finding["ts"].get<double>() == Approx(double(kYear3000) + 0.010).margin(1e-3));
            }
        }
        CHECK(stalls == 1);

        const auto text = runCommand({TCPSCOPE_CLI, "analyze", capture.string()});
        REQUIRE(text.exitCode == 0);
        CHECK(text.out.find("  from 3000-01-01 00:00:00.000000 to 3000-01-01 00:00:01.211000 UTC (1.211 s)") !=
              std::string::npos);
        const auto packets = runCommand({TCPSCOPE_CLI, "packets", capture.string(), "--format", "json"});
        REQUIRE(packets.exitCode == 0);
        const nlohmann::json listed = nlohmann::json::parse(packets.out);
        REQUIRE(listed["packets"].size() == 6);
        CHECK(listed["packets"][5]["ts"].get<double>() - listed["packets"][4]["ts"].get<double>() ==
              Approx(0.001).margin(1e-4));
        fs::remove(capture);
    }
}
