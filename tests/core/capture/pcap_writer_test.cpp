// The classic pcap writer shared by the benchmark generator and the tests: microsecond and
// nanosecond files in either byte order are read back the same by tcpscope's reader and by tshark,
// the file built in memory is the file written to disk, and misuse or failures are refused clearly.
#include "capture/pcap_writer.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "capture/capture_reader.hpp"
#include "app/cli/run_command.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope {
namespace {

struct Record {
    int64_t tsNs;
    std::vector<uint8_t> bytes;
    uint32_t originalLength;
};

std::vector<Record> sampleRecords(uint32_t linkType) {
    test::SegmentSpec spec;
    spec.payloadLength = 200;
    const std::vector<uint8_t> frame = test::buildFrame(spec, linkType);
    const auto length = static_cast<uint32_t>(frame.size());
    return {
        {1'700'000'000'123'456'789, frame, length},
        {1'700'000'000'999'999'999, test::cutToSnaplen(frame, 96), length},  // cut by a smaller snapshot length
        {1'700'000'002'000'000'001, frame, length},
    };
}

int64_t inResolution(int64_t tsNs, bool nanoseconds) { return nanoseconds ? tsNs : tsNs / 1000 * 1000; }

std::vector<uint8_t> fileBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeRecords(PcapWriter& writer, const std::vector<Record>& records) {
    for (const Record& record : records) {
        writer.writeRecord(record.tsNs, record.bytes, record.originalLength);
    }
}

}  // namespace

TEST_CASE("pcap writer: microsecond and nanosecond files in either byte order are read back by tcpscope and "
          "tshark with the same times, lengths and bytes",
          "[pcap_writer][tshark]") {
    const bool nanoseconds = GENERATE(false, true);
    const bool bigEndian = GENERATE(false, true);
    const uint32_t linkType = GENERATE(linktype::kEthernet, linktype::kRaw);
    INFO((nanoseconds ? "ns" : "us") << (bigEndian ? " big-endian" : " little-endian") << " link type " << linkType);
    const PcapFileHeader header{linkType, 65535, nanoseconds, bigEndian};
    const std::vector<Record> records = sampleRecords(linkType);
    const std::filesystem::path path = test::uniqueTempPath("pcap-writer");
    {
        PcapWriter writer(path.string(), header, 64);  // a small buffer: several flushes
        writeRecords(writer, records);
        writer.finish();
        CHECK(writer.bytesWritten() == std::filesystem::file_size(path));
    }
    PcapWriter inMemory(header);
    writeRecords(inMemory, records);
    const std::vector<uint8_t> onDisk = fileBytes(path);
    CHECK(std::vector<uint8_t>(inMemory.bytes().begin(), inMemory.bytes().end()) == onDisk);

    const auto reader = CaptureReader::open(path.string());
    CHECK(reader->format().container == (nanoseconds ? "pcap-ns" : "pcap"));
    RawPacket packet;
    for (const Record& record : records) {
        REQUIRE(reader->next(packet));
        CHECK(packet.tsNs == inResolution(record.tsNs, nanoseconds));
        CHECK(packet.linkType == linkType);
        CHECK(packet.originalLength == record.originalLength);
        REQUIRE(packet.capturedLength == record.bytes.size());
        CHECK(std::equal(record.bytes.begin(), record.bytes.end(), packet.data));
    }
    CHECK_FALSE(reader->next(packet));
    CHECK(reader->error() == nullptr);
    CHECK(reader->warnings().empty());

    if (test::findInPath("tshark")) {
        const test::CommandResult fields =
            test::runCommand({"tshark", "-n", "-r", path.string(), "-T", "fields", "-E", "separator=|", "-e",
                              "frame.time_epoch", "-e", "frame.len", "-e", "frame.cap_len"});
        REQUIRE(fields.ok());
        std::string expected;
        for (const Record& record : records) {
            const int64_t tsNs = inResolution(record.tsNs, nanoseconds);
            expected += fmt::format("{}.{:09}|{}|{}\n", tsNs / 1'000'000'000, tsNs % 1'000'000'000,
                                    record.originalLength, record.bytes.size());
        }
        CHECK(fields.out == expected);
    } else {
        WARN("tshark not found: the pcap writer was not checked against Wireshark");
    }
    std::filesystem::remove(path);
}

TEST_CASE("pcap writer: the file header holds the magic of the resolution, version 2.4, snapshot length and "
          "link type in the chosen byte order",
          "[pcap_writer]") {
    PcapWriter microseconds(PcapFileHeader{linktype::kRaw, 65535, false, false});
    CHECK(std::vector<uint8_t>(microseconds.bytes().begin(), microseconds.bytes().end()) ==
          std::vector<uint8_t>{0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0,
                               static_cast<uint8_t>(linktype::kRaw), 0, 0, 0});
    PcapWriter bigEndianNanoseconds(PcapFileHeader{linktype::kEthernet, 262144, true, true});
    CHECK(std::vector<uint8_t>(bigEndianNanoseconds.bytes().begin(), bigEndianNanoseconds.bytes().end()) ==
          std::vector<uint8_t>{0xa1, 0xb2, 0x3c, 0x4d, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 1});
}

TEST_CASE("pcap writer: refuses a record over the snapshot length or shorter on the wire than captured, and "
          "names the file it cannot create",
          "[pcap_writer]") {
    PcapWriter writer(PcapFileHeader{linktype::kEthernet, 100, true, false});
    const std::vector<uint8_t> bytes(101, 0);
    CHECK_THROWS_AS(writer.writeRecord(0, bytes, 101), std::invalid_argument);
    CHECK_THROWS_AS(writer.writeRecord(0, std::span(bytes).first(50), 49), std::invalid_argument);
    CHECK(writer.bytesWritten() == kPcapFileHeaderBytes);
    writer.finish();
    CHECK_THROWS(writer.writeRecord(0, std::span(bytes).first(50), 50));

    const std::string path = "/nonexistent-folder-tcpscope/out.pcap";
    try {
        PcapWriter toFile(path, PcapFileHeader{});
        FAIL("no error");
    } catch (const CaptureWriteError& error) {
        CHECK(std::string(error.what()) == path + ": offset 0: cannot create the file: No such file or directory");
    }
}

}  // namespace tcpscope
