// The pcapng writer: what it writes is read back the same by tcpscope's reader and by tshark,
// every block is on disk as soon as it is written, and failures name the file.
#include <unistd.h>

#include <array>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "capture/capture_reader.hpp"
#include "capture/pcapng_writer.hpp"
#include "app/cli/run_command.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope {
namespace {

struct WrittenPacket {
    uint32_t interfaceId;
    int64_t tsNs;
    std::vector<uint8_t> bytes;
    uint32_t originalLength;
    std::string comment;
};

std::vector<WrittenPacket> samplePackets() {
    test::SegmentSpec spec;
    spec.payloadLength = 100;
    const std::vector<uint8_t> ethernet = test::buildFrame(spec, linktype::kEthernet);
    spec.payloadLength = 3;  // odd length: the data needs padding
    const std::vector<uint8_t> raw = test::buildFrame(spec, linktype::kRaw);
    return {
        {0, 1'700'000'000'123'456'789, ethernet, static_cast<uint32_t>(ethernet.size()), "first, with a comment"},
        {1, 1'700'000'000'223'456'780, raw, static_cast<uint32_t>(raw.size()), ""},
        {0, 1'700'000'001'000'000'001, test::cutToSnaplen(ethernet, 64), static_cast<uint32_t>(ethernet.size()),
         "cut to 64 bytes \xc3\xa9"},
    };
}

PcapngSectionInfo sampleSection() { return {"x86_64", "Linux", "tcpscope tests", {"a section comment"}}; }

void writeSample(PcapngWriter& writer, const std::vector<WrittenPacket>& packets) {
    REQUIRE(writer.addInterface({linktype::kEthernet, 262144, "eth-test", "an Ethernet port", "tcp port 80"}) == 0);
    REQUIRE(writer.addInterface({linktype::kRaw, 65535, "raw-test", "", ""}) == 1);
    for (const WrittenPacket& packet : packets) {
        writer.writePacket({packet.interfaceId, packet.tsNs, packet.originalLength, packet.bytes, packet.comment});
    }
}

std::vector<RawPacket> readBack(CaptureReader& reader, std::vector<std::vector<uint8_t>>& storage) {
    std::vector<RawPacket> packets;
    RawPacket packet;
    while (reader.next(packet)) {
        storage.emplace_back(packet.data, packet.data + packet.capturedLength);
        packets.push_back(packet);
        packets.back().data = storage.back().data();
    }
    return packets;
}

void requireSameAsWritten(const std::vector<RawPacket>& read, const std::vector<WrittenPacket>& written,
                          const std::vector<std::string>& comments) {
    REQUIRE(read.size() == written.size());
    for (size_t index = 0; index < written.size(); ++index) {
        INFO("packet " << index);
        CHECK(read[index].tsNs == written[index].tsNs);
        CHECK(read[index].interfaceId == written[index].interfaceId);
        CHECK(read[index].linkType == (written[index].interfaceId == 0 ? linktype::kEthernet : linktype::kRaw));
        CHECK(read[index].originalLength == written[index].originalLength);
        REQUIRE(read[index].capturedLength == written[index].bytes.size());
        CHECK(std::equal(written[index].bytes.begin(), written[index].bytes.end(), read[index].data));
        CHECK(comments[index] == written[index].comment);
    }
}

}  // namespace

TEST_CASE("pcapng writer: tcpscope's reader gets back every packet, time, length, link type and comment",
          "[live][pcapng_writer]") {
    const std::filesystem::path path = test::uniqueTempPath("pcapng-writer", ".pcapng");
    const std::vector<WrittenPacket> written = samplePackets();
    {
        PcapngWriter writer(path.string(), sampleSection());
        writeSample(writer, written);
        writer.writeInterfaceStats({0, written.back().tsNs, written.front().tsNs, 5, 1, 0, 2});
        CHECK(writer.packetsWritten() == 3);
        writer.close();
        CHECK(writer.bytesWritten() == std::filesystem::file_size(path));
    }
    const auto reader = CaptureReader::open(path.string());
    CHECK(reader->format().container == "pcapng");
    std::vector<std::vector<uint8_t>> storage;
    const std::vector<RawPacket> read = readBack(*reader, storage);
    std::vector<std::string> comments;
    for (const RawPacket& packet : read) {
        comments.emplace_back(packet.comment);
    }
    requireSameAsWritten(read, written, comments);
    CHECK(reader->warnings().empty());
    CHECK(reader->error() == nullptr);
    CHECK(reader->sectionComments() == std::vector<std::string>{"a section comment"});
    std::filesystem::remove(path);
}

TEST_CASE("pcapng writer: tshark reads the same times, lengths, comments, interfaces and statistics",
          "[live][pcapng_writer][tshark]") {
    if (!test::findInPath("tshark")) {
        WARN("tshark not found: the pcapng writer was not checked against Wireshark");
        return;
    }
    const std::filesystem::path path = test::uniqueTempPath("pcapng-writer-tshark", ".pcapng");
    const std::vector<WrittenPacket> written = samplePackets();
    {
        PcapngWriter writer(path.string(), sampleSection(), PcapngFlush::Manual);
        writeSample(writer, written);
        writer.writeInterfaceStats({0, written.back().tsNs, written.front().tsNs, 5, 1, 0, 2});
        writer.close();
    }
    const test::CommandResult fields = test::runCommand(
        {"tshark", "-n", "-r", path.string(), "-T", "fields", "-E", "separator=|", "-e", "frame.time_epoch", "-e",
         "frame.len", "-e", "frame.cap_len", "-e", "frame.interface_name", "-e", "frame.comment"});
    REQUIRE(fields.ok());
    std::string expected;
    for (const WrittenPacket& packet : written) {
        expected += fmt::format("{}.{:09}|{}|{}|{}|{}\n", packet.tsNs / 1'000'000'000, packet.tsNs % 1'000'000'000,
                                packet.originalLength, packet.bytes.size(),
                                packet.interfaceId == 0 ? "eth-test" : "raw-test", packet.comment);
    }
    CHECK(fields.out == expected);
    std::filesystem::remove(path);
}

TEST_CASE("pcapng writer: every packet is on disk as soon as it is written (a kill loses nothing before it)",
          "[live][pcapng_writer]") {
    const std::filesystem::path path = test::uniqueTempPath("pcapng-writer-flush", ".pcapng");
    const std::vector<WrittenPacket> written = samplePackets();
    PcapngWriter writer(path.string(), sampleSection());
    writer.addInterface({linktype::kEthernet, 262144, "eth-test", "", ""});
    writer.addInterface({linktype::kRaw, 65535, "raw-test", "", ""});
    for (size_t count = 1; count <= written.size(); ++count) {
        const WrittenPacket& packet = written[count - 1];
        writer.writePacket({packet.interfaceId, packet.tsNs, packet.originalLength, packet.bytes, packet.comment});
        // The writer is still open, as it would be when the process is killed now.
        const auto reader = CaptureReader::open(path.string());
        std::vector<std::vector<uint8_t>> storage;
        CHECK(readBack(*reader, storage).size() == count);
        CHECK(reader->error() == nullptr);
        CHECK(reader->warnings().empty());
    }
    writer.close();
    std::filesystem::remove(path);
}

TEST_CASE("pcapng writer: writes to an open descriptor or stdio stream without closing it", "[live][pcapng_writer]") {
    const std::vector<WrittenPacket> written = samplePackets();
    std::FILE* stream = std::tmpfile();
    REQUIRE(stream != nullptr);
    std::fputs("", stream);
    {
        PcapngWriter writer(stream, "a temporary file", sampleSection(), PcapngFlush::Manual);
        writeSample(writer, written);
        writer.close();
    }
    // Still open: read the bytes back through it.
    REQUIRE(std::fseek(stream, 0, SEEK_SET) == 0);
    std::vector<uint8_t> bytes;
    std::array<uint8_t, 4096> chunk{};
    while (const size_t got = std::fread(chunk.data(), 1, chunk.size(), stream)) {
        bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(got));
    }
    std::fclose(stream);
    const auto reader = CaptureReader::openMemory("from a stream", bytes);
    std::vector<std::vector<uint8_t>> storage;
    const std::vector<RawPacket> read = readBack(*reader, storage);
    std::vector<std::string> comments;
    for (const RawPacket& packet : read) {
        comments.emplace_back(packet.comment);
    }
    requireSameAsWritten(read, written, comments);
}

TEST_CASE("pcapng writer: failures name the file and the reason", "[live][pcapng_writer]") {
    SECTION("a folder that does not exist") {
        const std::string path = "/nonexistent-folder-tcpscope/out.pcapng";
        try {
            PcapngWriter writer(path, sampleSection());
            FAIL("no error");
        } catch (const PcapngWriteError& error) {
            CHECK(std::string(error.what()) == path + ": offset 0: cannot create the file: No such file or directory");
        }
    }
    SECTION("a pipe whose reader is gone") {
        std::array<int, 2> pipeFds{};
        REQUIRE(::pipe(pipeFds.data()) == 0);
        ::close(pipeFds[0]);
        // SIGPIPE would end the test program; a writer to a pipe runs with it ignored, as the capture helper does.
        const auto previous = std::signal(SIGPIPE, SIG_IGN);
        try {
            PcapngWriter writer(pipeFds[1], "standard output", sampleSection());
            FAIL("no error");
        } catch (const PcapngWriteError& error) {
            CHECK(std::string(error.what()) == "standard output: offset 0: cannot write: Broken pipe");
        }
        std::signal(SIGPIPE, previous);
        ::close(pipeFds[1]);
    }
    SECTION("a packet of an interface never described, and a write after close") {
        const std::filesystem::path path = test::uniqueTempPath("pcapng-writer-misuse", ".pcapng");
        PcapngWriter writer(path.string(), sampleSection());
        const std::vector<uint8_t> bytes(10, 0);
        CHECK_THROWS_AS(writer.writePacket({0, 0, 10, bytes, ""}), std::invalid_argument);
        writer.addInterface({linktype::kEthernet, 0, "", "", ""});
        CHECK_THROWS_AS(writer.writePacket({0, 0, 5, bytes, ""}), std::invalid_argument);  // original < captured
        writer.close();
        CHECK_THROWS_WITH(writer.writePacket({0, 0, 10, bytes, ""}), Catch::Contains("already closed"));
        std::filesystem::remove(path);
    }
}

}  // namespace tcpscope
