#include <catch2/catch.hpp>
#include <limits>
#include <optional>

#include "capture/capture_reader.hpp"
#include "core/capture/capture_builder.hpp"

using namespace tcpscope;
using namespace tcpscope::testing;

namespace {
constexpr int64_t kSecondNs = 1'000'000'000;
constexpr uint64_t kBaseSeconds = 1700000000;
}  // namespace

TEST_CASE("pcapng: packets, comments and default microsecond timestamps", "[pcapng]") {
    for (const bool bigEndian : {false, true}) {
        CAPTURE(bigEndian);
        PcapngBuilder builder(bigEndian);
        builder.sectionHeader({}, "recorded on host A").interfaceDescription(linktype::kEthernet, 262144);
        const uint64_t firstOffset = builder.bytes().size();
        builder.enhancedPacket(0, kBaseSeconds * 1'000'000 + 5, sampleFrame(0), 0, "retransmission here")
            .enhancedPacket(0, kBaseSeconds * 1'000'000 + 6, sampleFrame(1), 1514);
        auto reader = CaptureReader::openMemory("one.pcapng", builder.bytes());
        CHECK(reader->format().container == "pcapng");
        const auto packets = readAll(*reader);
        REQUIRE(packets.size() == 2);
        CHECK(packets[0].tsNs == static_cast<int64_t>(kBaseSeconds) * kSecondNs + 5000);
        CHECK(packets[0].data == sampleFrame(0));
        CHECK(packets[0].comment == "retransmission here");
        CHECK(packets[0].recordOffset == firstOffset);
        CHECK(packets[1].comment.empty());
        CHECK(packets[1].originalLength == 1514);
        CHECK(packets[1].linkType == linktype::kEthernet);
        CHECK(reader->sectionComments() == std::vector<std::string>{"recorded on host A"});
        CHECK(reader->warnings().empty());
        CHECK(reader->error() == nullptr);
    }
}

TEST_CASE("pcapng: sections of different byte order each describe their own interfaces", "[pcapng]") {
    PcapngBuilder builder(false);
    builder.sectionHeader(false, "little")
        .interfaceDescription(linktype::kEthernet)
        .interfaceDescription(linktype::kLinuxSll2)
        .enhancedPacket(1, 1'000'000, linuxSll2Frame(ipv4Tcp(1, 2)))
        .sectionHeader(true, "big")
        .interfaceDescription(linktype::kRaw)
        .enhancedPacket(0, 2'000'000, ipv4Tcp(3, 4))
        .enhancedPacket(1, 2'000'000, ipv4Tcp(5, 6));  // interface 1 belonged to the first section
    auto reader = CaptureReader::openMemory("sections.pcapng", builder.bytes());
    const auto packets = readAll(*reader);
    REQUIRE(packets.size() == 2);
    CHECK(packets[0].linkType == linktype::kLinuxSll2);
    CHECK(packets[0].interfaceId == 1);
    CHECK(packets[0].tsNs == kSecondNs);
    CHECK(packets[1].linkType == linktype::kRaw);
    CHECK(packets[1].interfaceId == 0);
    CHECK(packets[1].tsNs == 2 * kSecondNs);
    CHECK(packets[1].data == ipv4Tcp(3, 4));
    CHECK(reader->sectionComments() == std::vector<std::string>{"little", "big"});
    REQUIRE(reader->warnings().size() == 1);
    CHECK_THAT(reader->warnings()[0].reason, Catch::Contains("interface 1") && Catch::Contains("skipped"));
    CHECK(reader->error() == nullptr);
}

TEST_CASE("pcapng: per-interface link type, if_tsresol and if_tsoffset", "[pcapng][timestamps]") {
    PcapngBuilder builder;
    builder.sectionHeader()
        .interfaceDescription(linktype::kEthernet, 0, 9)                          // nanoseconds
        .interfaceDescription(linktype::kLinuxSll2, 0, 0x80 | 20)                 // 2^-20 s
        .interfaceDescription(linktype::kRaw, 0, 12)                              // picoseconds
        .interfaceDescription(linktype::kEthernet, 0, 3, -3600)                   // milliseconds, an hour back
        .interfaceDescription(linktype::kEthernet, 0, {}, int64_t(kBaseSeconds))  // microseconds from an offset
        .enhancedPacket(0, kBaseSeconds * 1'000'000'000 + 7, sampleFrame(0))
        .enhancedPacket(1, (kBaseSeconds << 20) + (1 << 19), linuxSll2Frame(ipv4Tcp(1, 2)))
        .enhancedPacket(2, 4'000'000'000'000'000'000 + 2'500, ipv4Tcp(1, 2))  // 4e6 s after the epoch
        .enhancedPacket(3, kBaseSeconds * 1000 + 250, sampleFrame(1))
        .enhancedPacket(4, 42, sampleFrame(2));
    const auto packets = readAllFromMemory(builder.bytes());
    REQUIRE(packets.size() == 5);
    const int64_t base = static_cast<int64_t>(kBaseSeconds) * kSecondNs;
    CHECK(packets[0].tsNs == base + 7);
    CHECK(packets[1].tsNs == base + kSecondNs / 2);
    CHECK(packets[2].tsNs == 4'000'000 * kSecondNs + 2);  // 2500 ps
    CHECK(packets[3].tsNs == base + 250'000'000 - 3600 * kSecondNs);
    CHECK(packets[4].tsNs == base + 42'000);
    CHECK(packets[1].linkType == linktype::kLinuxSll2);
    CHECK(packets[2].linkType == linktype::kRaw);
    CHECK(packets[3].interfaceId == 3);
}

TEST_CASE("pcapng: simple and obsolete packet blocks", "[pcapng]") {
    const Bytes longFrame = ethernetFrame(ipv4Tcp(7, 8, 300));
    const Bytes oddFrame = ethernetFrame(ipv4Tcp(9, 10, 7));  // not a multiple of 4: padding follows
    PcapngBuilder builder;
    builder.sectionHeader()
        .interfaceDescription(linktype::kEthernet, 128)
        .interfaceDescription(linktype::kLinuxSll2, 0)
        .simplePacket(longFrame)
        .simplePacket(oddFrame)
        .obsoletePacket(1, 3'000'000, linuxSll2Frame(ipv4Tcp(1, 2)), 0, "old block");
    auto reader = CaptureReader::openMemory("blocks.pcapng", builder.bytes());
    const auto packets = readAll(*reader);
    REQUIRE(packets.size() == 3);
    // A simple packet block keeps min(original length, snapshot length, block data) bytes.
    CHECK(packets[0].capturedLength == 128);
    CHECK(packets[0].originalLength == longFrame.size());
    CHECK(Bytes(longFrame.begin(), longFrame.begin() + 128) == packets[0].data);
    CHECK(packets[0].linkType == linktype::kEthernet);
    CHECK(packets[0].tsNs == 0);
    CHECK(packets[1].data == oddFrame);
    CHECK(packets[2].linkType == linktype::kLinuxSll2);
    CHECK(packets[2].interfaceId == 1);
    CHECK(packets[2].tsNs == 3 * kSecondNs);
    CHECK(packets[2].comment == "old block");
    // Only the missing timestamps are worth a word.
    REQUIRE(reader->warnings().size() == 1);
    CHECK_THAT(reader->warnings()[0].reason, Catch::Contains("no timestamp"));
}

TEST_CASE("pcapng: blocks without packets are skipped by their length", "[pcapng]") {
    ByteWriter nameRecord(false);
    nameRecord.u16(1);  // nrb_record_ipv4
    nameRecord.u16(13);
    nameRecord.append(Bytes{10, 0, 0, 1});
    nameRecord.append(std::string("host.one\0", 9));
    nameRecord.pad4();
    nameRecord.u32(0);  // nrb_record_end
    PcapngBuilder builder;
    builder.sectionHeader()
        .interfaceDescription(linktype::kEthernet)
        .block(4, nameRecord.bytes())  // name resolution
        .enhancedPacket(0, 1, sampleFrame(0))
        .block(5, Bytes(20, 0))             // interface statistics
        .block(0x0000000a, Bytes(16, 7))    // decryption secrets
        .block(0x00000bad, Bytes(9, 1))     // custom, may be copied
        .block(0x40000bad, Bytes(4, 2))     // custom, must not be copied
        .block(0x12345678, Bytes(1000, 3))  // unknown
        .block(0x80000001, {})              // local use, empty body
        .enhancedPacket(0, 2, sampleFrame(1));
    auto reader = CaptureReader::openMemory("skip.pcapng", builder.bytes());
    const auto packets = readAll(*reader);
    REQUIRE(packets.size() == 2);
    CHECK(packets[1].data == sampleFrame(1));
    CHECK(reader->warnings().empty());
    CHECK(reader->error() == nullptr);
}

TEST_CASE("pcapng: bad block lengths stop reading with an error at the block", "[pcapng]") {
    auto withBadBlock = [](const Bytes& badBlock) {
        PcapngBuilder builder;
        builder.sectionHeader().interfaceDescription(linktype::kEthernet).enhancedPacket(0, 1, sampleFrame(0));
        const uint64_t offset = builder.bytes().size();
        builder.raw(badBlock).enhancedPacket(0, 2, sampleFrame(1));
        return std::make_pair(builder.bytes(), offset);
    };
    auto blockWithLengths = [](uint32_t leading, uint32_t trailing, size_t bodyBytes) {
        ByteWriter writer(false);
        writer.u32(6);
        writer.u32(leading);
        writer.append(Bytes(bodyBytes, 0));
        writer.u32(trailing);
        return writer.bytes();
    };
    struct Case {
        const char* what;
        Bytes block;
        const char* reason;
    };
    const std::vector<Case> cases = {
        {"not a multiple of 4", blockWithLengths(50, 50, 38), "invalid length of 50"},
        {"shorter than 12", blockWithLengths(8, 8, 0), "invalid length of 8"},
        {"beyond 16 MiB", blockWithLengths(0x7ffffff0, 0, 64), "invalid length of 2147483632"},
        {"trailing length differs", blockWithLengths(48, 44, 36), "48 bytes long at its start but 44"},
    };
    for (const Case& item : cases) {
        CAPTURE(item.what);
        const auto [file, offset] = withBadBlock(item.block);
        auto reader = CaptureReader::openMemory("bad.pcapng", file);
        CHECK(readAll(*reader).size() == 1);
        REQUIRE(reader->error() != nullptr);
        CHECK(reader->error()->offset == offset);
        CHECK_THAT(reader->error()->reason, Catch::Contains(item.reason));
    }
}

TEST_CASE("pcapng: a packet that does not fit its block is skipped with a warning", "[pcapng]") {
    ByteWriter body(false);
    body.u32(0);
    body.u64(0);
    body.u32(5000);  // captured length far beyond the block
    body.u32(5000);
    body.append(Bytes(64, 0));
    PcapngBuilder builder;
    builder.sectionHeader()
        .interfaceDescription(linktype::kEthernet)
        .block(6, body.bytes())
        .block(6, Bytes(8, 0))  // too short for an enhanced packet block
        .enhancedPacket(0, 2, sampleFrame(1));
    auto reader = CaptureReader::openMemory("overlong.pcapng", builder.bytes());
    CHECK(readAll(*reader).size() == 1);
    REQUIRE(reader->warnings().size() == 2);
    CHECK_THAT(reader->warnings()[0].reason, Catch::Contains("5000 captured bytes"));
    CHECK_THAT(reader->warnings()[1].reason, Catch::Contains("too short"));
}

TEST_CASE("pcapng: a file cut short keeps every complete packet", "[pcapng][truncated]") {
    PcapngBuilder builder;
    builder.sectionHeader().interfaceDescription(linktype::kEthernet);
    std::vector<uint64_t> ends;
    const uint64_t headerEnd = builder.bytes().size();
    for (int i = 0; i < 3; ++i) {
        builder.enhancedPacket(0, static_cast<uint64_t>(i), sampleFrame(i), 0, i == 1 ? "note" : "");
        ends.push_back(builder.bytes().size());
    }
    const Bytes full = builder.bytes();
    for (size_t cut = headerEnd; cut < full.size(); ++cut) {
        CAPTURE(cut);
        auto reader = CaptureReader::openMemory("cut.pcapng",
                                                Bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut)));
        const auto packets = readAll(*reader);
        const auto complete =
            static_cast<size_t>(std::count_if(ends.begin(), ends.end(), [&](uint64_t end) { return end <= cut; }));
        REQUIRE(packets.size() == complete);
        CHECK(reader->error() == nullptr);
        const uint64_t blockStart = complete == 0 ? headerEnd : ends[complete - 1];
        if (blockStart == cut) {
            CHECK(reader->warnings().empty());
            CHECK_FALSE(reader->cutShort());
        } else {
            REQUIRE(reader->warnings().size() == 1);
            CHECK(reader->warnings()[0].offset == blockStart);
            REQUIRE(reader->cutShort());
            CHECK(reader->cutShort()->recordOffset == blockStart);
            CHECK(reader->cutShort()->bytesLeft == cut - blockStart);
            CHECK_THAT(reader->warnings()[0].reason,
                       Catch::StartsWith("file ends " + std::to_string(cut - blockStart) +
                                         (cut - blockStart == 1 ? " byte" : " bytes") + " into a block"));
        }
    }
}

TEST_CASE("pcapng: a broken first section header cannot be opened", "[pcapng]") {
    CHECK_THROWS_WITH(CaptureReader::openMemory("v2.pcapng", PcapngBuilder().sectionHeader({}, {}, 2).bytes()),
                      Catch::Contains("unsupported pcapng version 2.0"));
    Bytes badMagic = PcapngBuilder().sectionHeader().bytes();
    badMagic[8] = 0x99;
    CHECK_THROWS_WITH(CaptureReader::openMemory("magic.pcapng", badMagic), Catch::Contains("byte-order magic"));
    const Bytes full = PcapngBuilder().sectionHeader().bytes();
    CHECK_THROWS_WITH(CaptureReader::openMemory("short.pcapng", Bytes(full.begin(), full.begin() + 20)),
                      Catch::Contains("first section header block"));
}

TEST_CASE("pcapng: a large packet block spanning read chunks", "[pcapng]") {
    const Bytes big = ethernetFrame(ipv4Tcp(1, 2, 3'000'000));
    PcapngBuilder builder;
    builder.sectionHeader().interfaceDescription(linktype::kEthernet);
    for (int i = 0; i < 5; ++i) {
        builder.enhancedPacket(0, 1, sampleFrame(i)).enhancedPacket(0, 2, big);
    }
    const auto path = writeTempFile("big.pcapng", builder.bytes());
    auto reader = CaptureReader::open(path.string());
    const auto packets = readAll(*reader);
    REQUIRE(packets.size() == 10);
    for (int i = 0; i < 5; ++i) {
        CHECK(packets[2 * static_cast<size_t>(i)].data == sampleFrame(i));
        CHECK(packets[2 * static_cast<size_t>(i) + 1].data == big);
    }
    CHECK(reader->warnings().empty());
}

TEST_CASE("pcapng: broken blocks inside a file", "[pcapng]") {
    SECTION("an interface description too short to number the interfaces is an error") {
        PcapngBuilder builder;
        builder.sectionHeader().interfaceDescription(linktype::kEthernet).enhancedPacket(0, 1, sampleFrame(0));
        const uint64_t offset = builder.bytes().size();
        builder.block(1, Bytes(4, 0)).enhancedPacket(0, 2, sampleFrame(1));
        auto reader = CaptureReader::openMemory("idb.pcapng", builder.bytes());
        CHECK(readAll(*reader).size() == 1);
        REQUIRE(reader->error() != nullptr);
        CHECK(reader->error()->offset == offset);
        CHECK_THAT(reader->error()->reason, Catch::Contains("interface description block too short"));
    }
    SECTION("a later section of an unsupported version is an error") {
        PcapngBuilder builder;
        builder.sectionHeader().interfaceDescription(linktype::kEthernet).enhancedPacket(0, 1, sampleFrame(0));
        const uint64_t offset = builder.bytes().size();
        builder.sectionHeader({}, {}, 3).interfaceDescription(linktype::kEthernet).enhancedPacket(0, 2, sampleFrame(1));
        auto reader = CaptureReader::openMemory("v3.pcapng", builder.bytes());
        CHECK(readAll(*reader).size() == 1);
        REQUIRE(reader->error() != nullptr);
        CHECK(reader->error()->offset == offset);
        CHECK_THAT(reader->error()->reason, Catch::Contains("unsupported pcapng version 3.0"));
    }
    SECTION("packet blocks too short for their fields are skipped") {
        PcapngBuilder builder;
        builder.sectionHeader()
            .interfaceDescription(linktype::kEthernet)
            .block(3, {})            // simple packet block without its length field
            .block(2, Bytes(12, 0))  // obsolete packet block without its lengths
            .enhancedPacket(0, 2, sampleFrame(1));
        auto reader = CaptureReader::openMemory("short.pcapng", builder.bytes());
        CHECK(readAll(*reader).size() == 1);
        REQUIRE(reader->warnings().size() == 2);
        CHECK_THAT(reader->warnings()[0].reason, Catch::Contains("simple packet block too short"));
        CHECK_THAT(reader->warnings()[1].reason, Catch::Contains("packet block too short"));
    }
    SECTION("an option running past its block is ignored with one warning") {
        ByteWriter body(false);
        body.u32(0);
        body.u64(0);
        body.u32(4);
        body.u32(4);
        body.append(Bytes{1, 2, 3, 4});
        body.u16(1);    // opt_comment
        body.u16(200);  // longer than what is left
        body.append(Bytes{'h', 'i', 0, 0});
        PcapngBuilder builder;
        builder.sectionHeader().interfaceDescription(linktype::kEthernet).block(6, body.bytes()).block(6, body.bytes());
        auto reader = CaptureReader::openMemory("option.pcapng", builder.bytes());
        const auto packets = readAll(*reader);
        REQUIRE(packets.size() == 2);
        CHECK(packets[0].comment.empty());
        CHECK(packets[0].data == Bytes{1, 2, 3, 4});
        REQUIRE(reader->warnings().size() == 1);
        CHECK_THAT(reader->warnings()[0].reason, Catch::Contains("option runs past the end of its block"));
    }
    SECTION("a section of more than 65536 interfaces keeps the first ones") {
        PcapngBuilder builder;
        builder.sectionHeader();
        for (int i = 0; i < 65537; ++i) {
            builder.interfaceDescription(linktype::kRaw);
        }
        builder.enhancedPacket(65535, 1, ipv4Tcp(1, 2)).enhancedPacket(65536, 1, ipv4Tcp(1, 2));
        auto reader = CaptureReader::openMemory("interfaces.pcapng", builder.bytes());
        CHECK(readAll(*reader).size() == 1);
        REQUIRE(reader->warnings().size() == 2);
        CHECK_THAT(reader->warnings()[0].reason, Catch::Contains("more than 65536 interfaces"));
        CHECK_THAT(reader->warnings()[1].reason, Catch::Contains("packet of interface 65536"));
    }
}

TEST_CASE("pcapng: times far from the epoch count from the file's own origin, exact to the nanosecond",
          "[pcapng][timestamps]") {
    constexpr uint64_t kYear3000 = 32'503'680'000;  // 3000-01-01 00:00:00 UTC
    struct Case {
        const char* what;
        std::optional<uint8_t> tsresol;
        int64_t tsoffset;
        uint64_t firstUnits;
        uint64_t unitsPerSecond;
        EpochTime first;
    };
    const Case cases[] = {
        {"microseconds in the year 3000", {}, 0, kYear3000 * 1'000'000, 1'000'000, EpochTime{int64_t(kYear3000), 0}},
        {"nanoseconds in 2300, past int64 nanoseconds", uint8_t{9}, 0, 10'413'792'000ULL * 1'000'000'000 + 5,
         1'000'000'000, EpochTime{10'413'792'000, 5}},
        {"seconds in the year 100000", uint8_t{0}, 0, 3'093'527'980'800, 1, EpochTime{3'093'527'980'800, 0}},
        {"2^-32 s from an offset in the year 3000", uint8_t{0x80 | 32}, int64_t(kYear3000), uint64_t{7} << 32,
         uint64_t{1} << 32, EpochTime{int64_t(kYear3000) + 7, 0}},
        {"milliseconds in the year 1000, before the epoch", uint8_t{3}, -30'610'224'000, 500, 1000,
         EpochTime{-30'610'224'000, 500'000'000}},
    };
    for (const Case& one : cases) {
        CAPTURE(one.what);
        PcapngBuilder builder;
        builder.sectionHeader().interfaceDescription(
            linktype::kEthernet, 0, one.tsresol,
            one.tsoffset != 0 ? std::optional<int64_t>(one.tsoffset) : std::nullopt);
        // Two packets 2 s apart: the gap must stay 2 s to the nanosecond, whatever the year.
        builder.enhancedPacket(0, one.firstUnits, sampleFrame(0))
            .enhancedPacket(0, one.firstUnits + 2 * one.unitsPerSecond, sampleFrame(1));
        auto reader = CaptureReader::openMemory("far.pcapng", builder.bytes());
        const auto packets = readAll(*reader);
        REQUIRE(packets.size() == 2);
        CHECK(reader->warnings().empty());
        const TimeOrigin origin = reader->timeOrigin();
        CHECK_FALSE(origin.isEpoch());
        CHECK(origin.absolute(packets[0].tsNs) == one.first);
        CHECK(packets[1].tsNs - packets[0].tsNs == 2'000'000'000);
    }
}

TEST_CASE("pcapng: a packet more than 146 years from the file's first is held at the limit, with a warning",
          "[pcapng][timestamps]") {
    PcapngBuilder builder;
    builder.sectionHeader().interfaceDescription(linktype::kEthernet, 0, uint8_t{0});  // seconds
    builder.enhancedPacket(0, 1'700'000'000, sampleFrame(0)).enhancedPacket(0, 100'000'000'000, sampleFrame(1));
    auto reader = CaptureReader::openMemory("jump.pcapng", builder.bytes());
    const auto packets = readAll(*reader);
    REQUIRE(packets.size() == 2);
    CHECK(reader->timeOrigin().isEpoch());
    CHECK(packets[0].tsNs == 1'700'000'000 * kSecondNs);
    CHECK(packets[1].tsNs == kPacketTimeReachNs);
    REQUIRE(reader->warnings().size() == 1);
    CHECK_THAT(reader->warnings()[0].reason, Catch::Contains("146 years"));
}
