// The generated files must be captures any tool reads: every record a consistent
// Ethernet/IPv4/TCP frame, in time order, read by the project's own reader.
#include <catch2/catch.hpp>

#include <set>
#include <tuple>

#include "capture/capture_reader.hpp"
#include "support/generated_capture.hpp"

using tcpscope::bench::Workload;
using tcpscope::test::GeneratedCapture;
using tcpscope::test::smallWorkload;

namespace {

uint16_t big16(const uint8_t* bytes) { return static_cast<uint16_t>(bytes[0] << 8 | bytes[1]); }
uint32_t big32(const uint8_t* bytes) {
    return static_cast<uint32_t>(bytes[0]) << 24 | static_cast<uint32_t>(bytes[1]) << 16 |
           static_cast<uint32_t>(bytes[2]) << 8 | bytes[3];
}

struct ReadBack {
    uint64_t packets = 0;
    uint64_t fileBytes = 24;
    uint64_t cut = 0;
    bool inTimeOrder = true;
    bool lengthsConsistent = true;
};

ReadBack readBack(const GeneratedCapture& capture, uint32_t snaplen) {
    auto reader = tcpscope::CaptureReader::open(capture.path());
    REQUIRE(reader->format().container == "pcap-ns");
    ReadBack result;
    tcpscope::RawPacket packet;
    int64_t lastTsNs = 0;
    while (reader->next(packet)) {
        ++result.packets;
        result.fileBytes += 16 + packet.capturedLength;
        REQUIRE(packet.linkType == tcpscope::linktype::kEthernet);
        REQUIRE(packet.capturedLength >= 54);
        REQUIRE(packet.capturedLength <= snaplen);
        result.inTimeOrder = result.inTimeOrder && packet.tsNs >= lastTsNs;
        lastTsNs = packet.tsNs;
        // The wire length is the IP total length plus the Ethernet header, cut or not.
        const uint16_t ipTotal = big16(packet.data + 16);
        result.lengthsConsistent = result.lengthsConsistent && packet.data[23] == 6 &&
                                   packet.originalLength == 14u + ipTotal &&
                                   packet.capturedLength == std::min(packet.originalLength, snaplen);
        result.cut += packet.capturedLength < packet.originalLength ? 1 : 0;
    }
    REQUIRE(reader->error() == nullptr);
    CHECK(reader->warnings().empty());
    return result;
}

}  // namespace

TEST_CASE("generator: every record is a consistent TCP frame in time order", "[bench]") {
    const auto [workload, packets] = GENERATE(table<Workload, uint64_t>({
        {Workload::W1, 40'000},
        {Workload::W2, 8'000},
        {Workload::W3, 40'000},
    }));
    CAPTURE(tcpscope::bench::workloadName(workload));
    const GeneratedCapture capture(smallWorkload(workload, packets));
    const ReadBack read = readBack(capture, 65535);
    CHECK(read.packets == capture.stats().packets);
    CHECK(read.fileBytes == capture.stats().bytes);
    CHECK(read.inTimeOrder);
    CHECK(read.lengthsConsistent);
    CHECK(read.cut == 0);
}

TEST_CASE("generator: W2 is full-sized segments, about 1 kB per record with its ACKs", "[bench]") {
    const GeneratedCapture capture(smallWorkload(Workload::W2, 9'000));
    // Two data segments of 1,514 bytes (+16) per ACK of 66 or 54 (+16): about 1,040 bytes a record,
    // so the full 3 M packets make about 3 GB.
    const double perRecord = static_cast<double>(capture.stats().bytes) / static_cast<double>(capture.stats().packets);
    CHECK(perRecord > 980);
    CHECK(perRecord < 1100);
}

TEST_CASE("generator: W1 averages about 150 bytes a record", "[bench]") {
    const GeneratedCapture capture(smallWorkload(Workload::W1, 50'000));
    const double perRecord = static_cast<double>(capture.stats().bytes) / static_cast<double>(capture.stats().packets);
    CHECK(perRecord > 130);
    CHECK(perRecord < 175);
}

TEST_CASE("generator: a snapshot length cuts frames but keeps their wire lengths", "[bench]") {
    auto options = smallWorkload(Workload::W2, 3'000);
    options.snaplen = 96;
    const GeneratedCapture capture(options);
    const ReadBack read = readBack(capture, 96);
    CHECK(read.packets == capture.stats().packets);
    CHECK(read.lengthsConsistent);
    CHECK(read.cut > 1'500);
}

TEST_CASE("generator: the W3 scan probes distinct tuples", "[bench]") {
    auto options = smallWorkload(Workload::W3, 60'000);
    const GeneratedCapture capture(options);
    auto reader = tcpscope::CaptureReader::open(capture.path());
    tcpscope::RawPacket packet;
    std::set<std::tuple<uint32_t, uint32_t, uint16_t, uint16_t>> tuples;
    uint64_t firstSyns = 0;
    uint64_t zeroWindowProbes = 0;
    while (reader->next(packet)) {
        const uint8_t* tcp = packet.data + 34;
        const uint8_t flags = tcp[13];
        if (flags == 0x02) {  // a SYN without ACK: every generation's first (W3 has no SYN retransmissions)
            ++firstSyns;
            tuples.emplace(big32(packet.data + 26), big32(packet.data + 30), big16(tcp), big16(tcp + 2));
        }
        const uint32_t payload = packet.originalLength - 14 - 20 - (tcp[12] >> 4) * 4u;
        zeroWindowProbes += payload == 1 ? 1 : 0;
    }
    CHECK(firstSyns == capture.stats().connections);
    // Every SYN opens a new tuple, except the reused tuple's later generations.
    const uint64_t reuseCycles = std::max<uint64_t>(60'000 / 2080, 10);
    CHECK(tuples.size() == firstSyns - (reuseCycles - 1));
    CHECK(zeroWindowProbes > 60'000 * 8 / 100 / 2 * 9 / 10);
}
