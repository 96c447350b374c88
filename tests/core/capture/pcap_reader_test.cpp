#include <catch2/catch.hpp>

#include "capture/capture_reader.hpp"
#include "capture/pcap_reader.hpp"
#include "core/capture/allocation_probe.hpp"
#include "core/capture/capture_builder.hpp"

using namespace tcpscope;
using namespace tcpscope::testing;

namespace {

struct ThreeRecords {
    Bytes file;
    std::vector<Bytes> frames;
    std::vector<uint64_t> offsets;  // where each record starts
};

ThreeRecords threeRecords(PcapHeader header) {
    ThreeRecords result;
    PcapBuilder builder(header);
    for (int i = 0; i < 3; ++i) {
        result.offsets.push_back(builder.bytes().size());
        result.frames.push_back(sampleFrame(i));
        builder.record(1700000000 + static_cast<uint32_t>(i), 123456 + static_cast<uint32_t>(i), result.frames.back(),
                       i == 1 ? 1514 : 0);
    }
    result.file = builder.bytes();
    return result;
}

}  // namespace

TEST_CASE("pcap: both magics in both byte orders give the same packets", "[pcap]") {
    for (const bool nanoseconds : {false, true}) {
        for (const bool bigEndian : {false, true}) {
            CAPTURE(nanoseconds, bigEndian);
            const ThreeRecords capture = threeRecords(PcapHeader{nanoseconds, bigEndian});
            auto reader = CaptureReader::openMemory("three.pcap", capture.file);
            CHECK(reader->format().container == (nanoseconds ? "pcap-ns" : "pcap"));
            CHECK(reader->format().compression == "none");
            const auto packets = readAll(*reader);
            REQUIRE(packets.size() == 3);
            for (size_t i = 0; i < 3; ++i) {
                const int64_t fraction = 123456 + static_cast<int64_t>(i);
                const int64_t expectedNs =
                    (1700000000 + static_cast<int64_t>(i)) * 1'000'000'000 + (nanoseconds ? fraction : fraction * 1000);
                CHECK(packets[i].tsNs == expectedNs);
                CHECK(packets[i].data == capture.frames[i]);
                CHECK(packets[i].capturedLength == capture.frames[i].size());
                CHECK(packets[i].linkType == linktype::kEthernet);
                CHECK(packets[i].recordOffset == capture.offsets[i]);
                CHECK(packets[i].comment.empty());
            }
            // A record shorter than the frame on the wire (caplen < len) is normal.
            CHECK(packets[1].originalLength == 1514);
            CHECK(reader->warnings().empty());
            CHECK(reader->error() == nullptr);
            CHECK(reader->bytesConsumed() == capture.file.size());
        }
    }
}

TEST_CASE("pcap: reading a file by path gives the packets and progress", "[pcap]") {
    const ThreeRecords capture = threeRecords(PcapHeader{});
    const auto path = writeTempFile("three.pcap", capture.file);
    auto reader = CaptureReader::open(path.string());
    CHECK(reader->path() == path.string());
    CHECK(reader->fileSize() == capture.file.size());
    CHECK(readAll(*reader) == readAllFromMemory(capture.file));
    CHECK(reader->bytesConsumed() == capture.file.size());
}

TEST_CASE("pcap: FCS bits in the link-type field are masked off", "[pcap]") {
    for (const uint32_t field : {0x30000001u, 0x04000001u | (4u << 28), 0x00000001u}) {
        PcapHeader header;
        header.linkType = field;
        const Bytes file = PcapBuilder(header).record(1, 2, sampleFrame(0)).bytes();
        const auto packets = readAllFromMemory(file);
        REQUIRE(packets.size() == 1);
        CHECK(packets[0].linkType == linktype::kEthernet);
    }
}

TEST_CASE("pcap: packets of the file are read in place, without a copy", "[pcap]") {
    Bytes file = PcapBuilder().record(1, 2, sampleFrame(3)).bytes();
    const uint8_t* fileBytes = file.data();
    auto reader = CaptureReader::openMemory("in-place.pcap", std::move(file));
    RawPacket packet;
    REQUIRE(reader->next(packet));
    CHECK(packet.data == fileBytes + 24 + 16);
}

TEST_CASE("pcap: a file cut short keeps every complete packet and says where it ends", "[pcap][truncated]") {
    const ThreeRecords capture = threeRecords(PcapHeader{});
    const size_t fullSize = capture.file.size();
    for (size_t cut = 24; cut < fullSize; ++cut) {
        CAPTURE(cut);
        const Bytes file(capture.file.begin(), capture.file.begin() + static_cast<std::ptrdiff_t>(cut));
        auto reader = CaptureReader::openMemory("cut.pcap", file);
        const auto packets = readAll(*reader);
        size_t complete = 0;
        while (complete < 3 && (complete + 1 < 3 ? capture.offsets[complete + 1] : fullSize) <= cut) {
            ++complete;
        }
        REQUIRE(packets.size() == complete);
        CHECK(reader->error() == nullptr);
        const bool onBoundary = complete < 3 && capture.offsets[complete] == cut;
        if (onBoundary) {
            CHECK(reader->warnings().empty());
            CHECK_FALSE(reader->cutShort());
            continue;
        }
        REQUIRE(reader->warnings().size() == 1);
        const InputProblem& warning = reader->warnings().front();
        CHECK(warning.offset == capture.offsets[complete]);
        const size_t into = cut - capture.offsets[complete];
        REQUIRE(reader->cutShort());
        CHECK(reader->cutShort()->recordOffset == capture.offsets[complete]);
        CHECK(reader->cutShort()->bytesLeft == into);
        CHECK_THAT(warning.reason, Catch::StartsWith("file ends " + std::to_string(into) +
                                                     (into == 1 ? " byte" : " bytes") + " into a packet record"));
        CHECK(warning.file == "cut.pcap");
    }
}

TEST_CASE("pcap: a file cut inside its header cannot be opened", "[pcap][truncated]") {
    const Bytes full = PcapBuilder().bytes();
    for (size_t cut = 4; cut < full.size(); ++cut) {
        const Bytes file(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
        try {
            CaptureReader::openMemory("header.pcap", file);
            FAIL("opened a pcap file of " << cut << " bytes");
        } catch (const CaptureError& error) {
            CHECK_THAT(error.what(), Catch::Contains("pcap file header"));
        }
    }
    // A header alone is a valid, empty capture.
    auto reader = CaptureReader::openMemory("empty.pcap", full);
    RawPacket packet;
    CHECK_FALSE(reader->next(packet));
    CHECK(reader->warnings().empty());
}

TEST_CASE("allocation probe: sees a large allocation", "[pcap]") {
    AllocationProbe probe;
    auto* volatile big = new uint8_t[size_t{16} << 20];
    big[0] = 1;
    delete[] big;
    CHECK(probe.largest() >= (size_t{16} << 20));
}

TEST_CASE("pcap: an absurd captured length stops reading with an error, and allocates nothing big", "[pcap]") {
    for (const uint32_t capturedLength : {0xffffffffu, 0x7fffffffu, 60u << 20, PcapReader::kMaxCapturedBytes + 1}) {
        CAPTURE(capturedLength);
        PcapBuilder builder;
        builder.record(1, 0, sampleFrame(0)).record(2, 0, sampleFrame(1));
        const uint64_t badOffset = builder.bytes().size();
        builder.recordHeader(3, 0, capturedLength, 60).raw(Bytes(100, 0xab));
        const auto path = writeTempFile("corrupt.pcap", builder.bytes());

        AllocationProbe probe;
        auto reader = CaptureReader::open(path.string());
        const auto packets = readAll(*reader);
        CHECK(probe.largest() < (size_t{8} << 20));
        CHECK(packets.size() == 2);
        REQUIRE(reader->error() != nullptr);
        CHECK(reader->error()->offset == badOffset);
        CHECK(reader->error()->file == path.string());
        CHECK_THAT(reader->error()->reason, Catch::Contains(std::to_string(capturedLength) + " captured bytes"));
        RawPacket packet;
        CHECK_FALSE(reader->next(packet));  // stays stopped
    }
}

TEST_CASE("pcap: captured lengths above a small snapshot length are accepted within a bound", "[pcap]") {
    PcapHeader header;
    header.snapLength = 96;
    // tcpdump's test files hold records several times their snapshot length: read them, warn once.
    Bytes file = PcapBuilder(header).record(1, 0, sampleFrame(5)).record(2, 0, Bytes(400, 1)).bytes();
    auto reader = CaptureReader::openMemory("snap.pcap", file);
    CHECK(readAll(*reader).size() == 2);
    REQUIRE(reader->warnings().size() == 1);
    CHECK_THAT(reader->warnings()[0].reason, Catch::Contains("snapshot length of 96"));
    CHECK(reader->error() == nullptr);

    // Far beyond it (64 KiB here) the record is taken for corruption.
    file = PcapBuilder(header).record(1, 0, Bytes(70000, 2)).bytes();
    reader = CaptureReader::openMemory("snap.pcap", file);
    CHECK(readAll(*reader).empty());
    REQUIRE(reader->error() != nullptr);
    CHECK(reader->error()->offset == 24);
}

TEST_CASE("pcap: BIG TCP frames up to 256 KiB are read", "[pcap]") {
    const Bytes big = ethernetFrame(ipv4Tcp(1, 2, 200000));
    const Bytes file = PcapBuilder().record(1, 0, big).record(2, 0, sampleFrame(1)).bytes();
    const auto packets = readAllFromMemory(file);
    REQUIRE(packets.size() == 2);
    CHECK(packets[0].data == big);
}

TEST_CASE("pcap: format 2.2 files with swapped length fields are read", "[pcap]") {
    PcapHeader header;
    header.versionMinor = 2;
    const Bytes frame = sampleFrame(2);
    const auto length = static_cast<uint32_t>(frame.size());
    const Bytes file = PcapBuilder(header).recordHeader(1, 0, 1514, length).raw(frame).bytes();
    const auto packets = readAllFromMemory(file);
    REQUIRE(packets.size() == 1);
    CHECK(packets[0].capturedLength == length);
    CHECK(packets[0].originalLength == 1514);
}

TEST_CASE("pcap: archaic versions and Kuznetzov records", "[pcap]") {
    PcapHeader archaic;
    archaic.versionMajor = 1;
    CHECK_THROWS_WITH(CaptureReader::openMemory("old.pcap", PcapBuilder(archaic).bytes()),
                      Catch::Contains("unsupported pcap format version 1.4"));

    // The patched libpcap of Alexey Kuznetzov adds ifindex, protocol, packet type and padding.
    ByteWriter writer(false);
    writer.u32(0xa1b2cd34);
    writer.u16(2);
    writer.u16(4);
    writer.u64(0);
    writer.u32(65535);
    writer.u32(1);
    const Bytes frame = sampleFrame(4);
    writer.u32(10);
    writer.u32(20);
    writer.u32(static_cast<uint32_t>(frame.size()));
    writer.u32(static_cast<uint32_t>(frame.size()));
    writer.u64(0x0000000400000002);
    writer.append(frame);
    const auto packets = readAllFromMemory(writer.bytes());
    REQUIRE(packets.size() == 1);
    CHECK(packets[0].data == frame);
    CHECK(packets[0].tsNs == 10'000'020'000);
}

TEST_CASE("pcap: seconds up to 2106 are read exactly, on the epoch's axis", "[pcap][timestamps]") {
    for (const bool nanoseconds : {false, true}) {
        CAPTURE(nanoseconds);
        PcapHeader header;
        header.nanoseconds = nanoseconds;
        PcapBuilder builder(header);
        const uint32_t fraction = nanoseconds ? 999'999'999 : 999'999;
        builder.record(0xFFFFFFFEu, fraction, sampleFrame(0)).record(0xFFFFFFFFu, fraction, sampleFrame(1));
        auto reader = CaptureReader::openMemory("2106.pcap", builder.bytes());
        const auto packets = readAll(*reader);
        REQUIRE(packets.size() == 2);
        CHECK(reader->timeOrigin().isEpoch());
        const int64_t fractionNs = nanoseconds ? 999'999'999 : 999'999'000;
        CHECK(packets[1].tsNs == int64_t{0xFFFFFFFF} * 1'000'000'000 + fractionNs);
        CHECK(packets[1].tsNs - packets[0].tsNs == 1'000'000'000);
    }
}
