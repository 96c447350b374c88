// The pcapng writer's interfaces of different timestamp resolutions and packets with several
// comments, as the annotated copy writes them: read back the same by tcpscope's reader and by tshark.
// (Its live-capture side, flushing and failures, is tested in tests/core/live/pcapng_writer_test.cpp.)
#include "capture/pcapng_writer.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "capture/capture_reader.hpp"
#include "app/cli/run_command.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope {
namespace {

struct CommentedPacket {
    uint32_t interfaceId;
    int64_t tsNs;     ///< given to the writer
    int64_t readNs;   ///< what the file holds: cut to the interface's resolution
    std::vector<uint8_t> bytes;
    std::string_view comment;
    std::vector<std::string_view> moreComments;
};

constexpr uint32_t kNanosecondInterface = 0;
constexpr uint32_t kMicrosecondInterface = 1;

std::vector<CommentedPacket> commentedPackets() {
    test::SegmentSpec spec;
    spec.payloadLength = 10;
    const std::vector<uint8_t> ethernet = test::buildFrame(spec, linktype::kEthernet);
    spec.payloadLength = 1;  // odd length: padding before the options
    const std::vector<uint8_t> raw = test::buildFrame(spec, linktype::kRaw);
    return {
        {kNanosecondInterface, 1'700'000'000'123'456'789, 1'700'000'000'123'456'789, ethernet, "first comment",
         {"second comment", "third comment \xc3\xa9"}},
        {kMicrosecondInterface, 1'700'000'000'223'456'789, 1'700'000'000'223'456'000, raw, "", {}},
        {kMicrosecondInterface, 1'700'000'001'000'001'999, 1'700'000'001'000'001'000, raw, "",
         {"a note", "another note"}},
        {kNanosecondInterface, 1'700'000'002'000'000'001, 1'700'000'002'000'000'001, ethernet, "only one", {}},
    };
}

void writeCommented(const std::string& path, const std::vector<CommentedPacket>& packets) {
    PcapngSectionInfo section;
    section.application = "tcpscope tests";
    PcapngWriter writer(path, section, PcapngFlush::Manual);
    PcapngInterfaceInfo nanoseconds;
    nanoseconds.linkType = linktype::kEthernet;
    nanoseconds.name = "ns-interface";
    PcapngInterfaceInfo microseconds;
    microseconds.linkType = linktype::kRaw;
    microseconds.name = "us-interface";
    microseconds.tsResolutionDigits = 6;
    REQUIRE(writer.addInterface(nanoseconds) == kNanosecondInterface);
    REQUIRE(writer.addInterface(microseconds) == kMicrosecondInterface);
    for (const CommentedPacket& packet : packets) {
        writer.writePacket({packet.interfaceId, packet.tsNs, static_cast<uint32_t>(packet.bytes.size()), packet.bytes,
                            packet.comment, packet.moreComments});
    }
    writer.sync();
    writer.close();
    CHECK(writer.bytesWritten() == std::filesystem::file_size(path));
}

// tshark shows a frame's comments joined by commas, the first opt_comment first.
std::string allComments(const CommentedPacket& packet) {
    std::string joined(packet.comment);
    for (const std::string_view comment : packet.moreComments) {
        if (!joined.empty()) {
            joined += ',';
        }
        joined += comment;
    }
    return joined;
}

}  // namespace

TEST_CASE("pcapng writer: microsecond and nanosecond interfaces and several comments per packet are read back "
          "by tcpscope",
          "[pcapng_writer]") {
    const std::filesystem::path path = test::uniqueTempPath("pcapng-commented", ".pcapng");
    const std::vector<CommentedPacket> written = commentedPackets();
    writeCommented(path.string(), written);

    const auto reader = CaptureReader::open(path.string());
    RawPacket packet;
    for (const CommentedPacket& expected : written) {
        INFO("packet at " << expected.tsNs);
        REQUIRE(reader->next(packet));
        CHECK(packet.tsNs == expected.readNs);
        CHECK(packet.interfaceId == expected.interfaceId);
        CHECK(packet.linkType == (expected.interfaceId == kNanosecondInterface ? linktype::kEthernet : linktype::kRaw));
        REQUIRE(packet.capturedLength == expected.bytes.size());
        CHECK(std::equal(expected.bytes.begin(), expected.bytes.end(), packet.data));
        // Our reader keeps the first comment of a packet.
        const std::string_view first = expected.comment.empty() && !expected.moreComments.empty()
                                           ? expected.moreComments.front()
                                           : expected.comment;
        CHECK(packet.comment == first);
    }
    CHECK_FALSE(reader->next(packet));
    CHECK(reader->error() == nullptr);
    CHECK(reader->warnings().empty());
    std::filesystem::remove(path);
}

TEST_CASE("pcapng writer: tshark reads the same times in each interface's resolution and every comment",
          "[pcapng_writer][tshark]") {
    if (!test::findInPath("tshark")) {
        WARN("tshark not found: the pcapng writer was not checked against Wireshark");
        return;
    }
    const std::filesystem::path path = test::uniqueTempPath("pcapng-commented-tshark", ".pcapng");
    const std::vector<CommentedPacket> written = commentedPackets();
    writeCommented(path.string(), written);
    const test::CommandResult fields =
        test::runCommand({"tshark", "-n", "-r", path.string(), "-T", "fields", "-E", "separator=|", "-e",
                          "frame.time_epoch", "-e", "frame.len", "-e", "frame.interface_name", "-e", "frame.comment"});
    REQUIRE(fields.ok());
    std::string expected;
    for (const CommentedPacket& packet : written) {
        expected += fmt::format("{}.{:09}|{}|{}|{}\n", packet.readNs / 1'000'000'000, packet.readNs % 1'000'000'000,
                                packet.bytes.size(),
                                packet.interfaceId == kNanosecondInterface ? "ns-interface" : "us-interface",
                                allComments(packet));
    }
    CHECK(fields.out == expected);
    std::filesystem::remove(path);
}

TEST_CASE("pcapng writer: an interface finer than nanoseconds is refused", "[pcapng_writer]") {
    const std::filesystem::path path = test::uniqueTempPath("pcapng-resolution", ".pcapng");
    PcapngWriter writer(path.string(), PcapngSectionInfo{});
    PcapngInterfaceInfo picoseconds;
    picoseconds.linkType = linktype::kEthernet;
    picoseconds.tsResolutionDigits = 12;
    CHECK_THROWS_AS(writer.addInterface(picoseconds), std::invalid_argument);
    CHECK(writer.interfaceCount() == 0);
    writer.close();
    std::filesystem::remove(path);
}

}  // namespace tcpscope
