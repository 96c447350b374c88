// Writes built frames to pcap files and checks that tshark reads the same TCP fields as the decoder,
// and that the builder's IP and TCP checksums are right. Skipped when tshark is not installed.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "decode_test_helpers.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

// Checksum status in tshark's field output: 0 bad, 1 good, 2 unverified.
const std::string kChecksumGood = "1";
const std::string kChecksumUnverified = "2";
const char* const kFields[] = {"tcp.srcport",
                               "tcp.dstport",
                               "tcp.seq_raw",
                               "tcp.ack_raw",
                               "tcp.len",
                               "tcp.flags",
                               "tcp.window_size_value",
                               "tcp.options.mss_val",
                               "tcp.options.wscale.shift",
                               "tcp.options.timestamp.tsval",
                               "tcp.options.sack_le",
                               "ip.src",
                               "ipv6.src",
                               "ip.checksum.status",
                               "tcp.checksum.status"};
constexpr size_t kFieldCount = std::size(kFields);

bool haveTshark() { return std::system("command -v tshark >/dev/null 2>&1") == 0; }

std::vector<std::string> splitFields(const std::string& line) {
    std::vector<std::string> fields;
    std::stringstream stream(line);
    std::string field;
    while (std::getline(stream, field, '\t')) {
        fields.push_back(field);
    }
    fields.resize(kFieldCount);
    return fields;
}

/// tshark's fields for every frame of `path`, one vector per frame.
std::vector<std::vector<std::string>> tsharkFields(const std::filesystem::path& path) {
    std::string command = "tshark -n -r '" + path.string() +
                          "' -o tcp.relative_sequence_numbers:FALSE -o tcp.check_checksum:TRUE"
                          " -o ip.check_checksum:TRUE -T fields -E occurrence=f";
    for (const char* field : kFields) {
        command += std::string(" -e ") + field;
    }
    command += " 2>/dev/null";
    std::vector<std::vector<std::string>> frames;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string line;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
        line += buffer;
        if (!line.empty() && line.back() == '\n') {
            line.pop_back();
            frames.push_back(splitFields(line));
            line.clear();
        }
    }
    pclose(pipe);
    return frames;
}

/// The same fields as the decoder sees them, in tshark's notation.
std::vector<std::string> decoderFields(const BuiltPacket& packet) {
    TcpSegment segment;
    REQUIRE(decodePacket(packet.raw(), segment) == DecodeStatus::Tcp);
    const TcpOptions& options = segment.options;
    char flags[8];
    std::snprintf(flags, sizeof flags, "0x%04x", segment.flags);
    const std::string address = segment.source.address.toString();
    return {std::to_string(segment.source.port),
            std::to_string(segment.destination.port),
            std::to_string(segment.seq),
            std::to_string(segment.ack),
            std::to_string(segment.payloadLength),
            flags,
            std::to_string(segment.window),
            options.mss != 0 ? std::to_string(options.mss) : "",
            options.windowScale >= 0 ? std::to_string(options.windowScaleSent) : "",
            options.hasTimestamp ? std::to_string(options.tsVal) : "",
            options.sackCount > 0 ? std::to_string(options.sack[0].left) : "",
            segment.ipVersion == 4 ? address : "",
            segment.ipVersion == 6 ? address : "",
            segment.ipVersion == 4 ? kChecksumGood : "",
            // A segment cut by the snaplen cannot be verified.
            segment.sizeLimited ? kChecksumUnverified : kChecksumGood};
}

/// Writes `packets` to a pcap of `linkType`, reads it back with tshark, compares field by field.
void crossCheck(const std::vector<BuiltPacket>& packets, uint32_t linkType) {
    const std::filesystem::path path = uniqueTempPath("crosscheck");
    writePcapFile(path, packets, {.linkType = linkType});
    const auto frames = tsharkFields(path);
    std::filesystem::remove(path);
    REQUIRE(frames.size() == packets.size());
    for (size_t i = 0; i < packets.size(); ++i) {
        const auto expected = decoderFields(packets[i]);
        for (size_t field = 0; field < kFieldCount; ++field) {
            INFO("link type " << linkType << ", frame " << i + 1 << ", field " << kFields[field]);
            CHECK(frames[i][field] == expected[field]);
        }
    }
}

SegmentSpec linuxSyn() {
    SegmentSpec spec{.sourcePort = 51000, .seq = 3000000000U, .ack = 0, .flags = tcpflag::kSyn, .window = 64240};
    spec.options.mss = 1460;
    spec.options.sackPermitted = true;
    spec.options.hasTimestamp = true;
    spec.options.tsVal = 2718281828U;
    spec.options.windowScale = 7;
    return spec;
}

SegmentSpec dataWithSack(const std::string& source, const std::string& destination) {
    SegmentSpec spec{.source = source, .sourcePort = 443, .destination = destination, .destinationPort = 51000,
                     .seq = 17, .ack = 3000000001U, .flags = tcpflag::kAck | tcpflag::kPsh | tcpflag::kEce,
                     .window = 501, .payloadLength = 1448};
    spec.options.hasTimestamp = true;
    spec.options.tsVal = 99;
    spec.options.tsEcr = 2718281828U;
    spec.options.sackCount = 2;
    spec.options.sack = {{{1000, 2000}, {3000, 4000}, {}, {}}};
    return spec;
}

}  // namespace

TEST_CASE("tshark reads built frames like the decoder", "[decode][tshark]") {
    if (!haveTshark()) {
        WARN("tshark not found: cross-check skipped");
        return;
    }
    const int64_t second = 1'000'000'000;
    SECTION("Ethernet: IPv4, QinQ, options, a snaplen cut, TSO, IPv6 extension headers") {
        SegmentSpec withIpOptions = dataWithSack("192.0.2.1", "192.0.2.2");
        withIpOptions.ipv4Options = {0x94, 0x04, 0x00, 0x00};
        SegmentSpec v6 = dataWithSack("2001:db8::1", "2001:db8::2");
        v6.ipv6Extensions = {Ipv6Extension::hopByHop(), Ipv6Extension::destinationOptions()};
        SegmentSpec scaleTooBig = linuxSyn();
        scaleTooBig.options.windowScale = 15;
        SegmentSpec tso = dataWithSack("192.0.2.1", "192.0.2.2");
        tso.payloadLength = 5000;
        tso.ipLengthOverride = 0;
        SegmentSpec allFlags{.flags = 0x1FF, .payloadLength = 1};

        std::vector<BuiltPacket> packets{
            buildPacket(linuxSyn(), 1 * second),
            buildPacket(dataWithSack("192.0.2.1", "192.0.2.2"), 2 * second, linktype::kEthernet,
                        {.vlanTags = {{0x88A8, 100, 0}, {0x8100, 10, 0}}}),
            buildPacket(withIpOptions, 3 * second),
            buildPacket(v6, 4 * second),
            buildPacket(scaleTooBig, 5 * second),
            buildPacket(tso, 6 * second),
            buildPacket(allFlags, 7 * second, linktype::kEthernet, {.padToEthernetMinimum = true}),
        };
        BuiltPacket cut = buildPacket(dataWithSack("192.0.2.1", "192.0.2.2"), 8 * second);
        cut.originalLength = static_cast<uint32_t>(cut.bytes.size());
        cut.bytes = cutToSnaplen(cut.bytes, 96);
        packets.push_back(cut);
        crossCheck(packets, linktype::kEthernet);
    }
    SECTION("Linux cooked v1 and v2") {
        for (const uint32_t linkType : {linktype::kLinuxSll, linktype::kLinuxSll2}) {
            crossCheck({buildPacket(linuxSyn(), second, linkType),
                        buildPacket(dataWithSack("2001:db8::a", "2001:db8::b"), 2 * second, linkType)},
                       linkType);
        }
    }
    SECTION("NULL in both byte orders, LOOP, raw IP") {
        crossCheck({buildPacket(linuxSyn(), second, linktype::kNull),
                    buildPacket(dataWithSack("2001:db8::a", "2001:db8::b"), 2 * second, linktype::kNull,
                                {.addressFamily = 30}),
                    buildPacket(linuxSyn(), 3 * second, linktype::kNull, {.nullBigEndian = true}),
                    buildPacket(dataWithSack("2001:db8::a", "2001:db8::b"), 4 * second, linktype::kNull,
                                {.addressFamily = 28, .nullBigEndian = true})},
                   linktype::kNull);
        crossCheck({buildPacket(linuxSyn(), second, linktype::kLoop),
                    buildPacket(dataWithSack("2001:db8::a", "2001:db8::b"), 2 * second, linktype::kLoop)},
                   linktype::kLoop);
        crossCheck({buildPacket(linuxSyn(), second, linktype::kRaw),
                    buildPacket(dataWithSack("2001:db8::a", "2001:db8::b"), 2 * second, linktype::kRaw)},
                   linktype::kRaw);
        crossCheck({buildPacket(linuxSyn(), second, linktype::kIpv4)}, linktype::kIpv4);
        crossCheck({buildPacket(dataWithSack("2001:db8::a", "2001:db8::b"), second, linktype::kIpv6)},
                   linktype::kIpv6);
    }
}
