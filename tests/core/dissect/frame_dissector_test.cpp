// A frame's details (core/dissect) on the samples: the fields a Wireshark user reads, compared with
// what tshark says of the same frames when tshark is installed (skipped with the reason otherwise).
#include "dissect/frame_dissector.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <sstream>

#include "capture/capture_reader.hpp"
#include "app/cli/run_command.hpp"
#include "dissect/frame_bytes_reader.hpp"
#include "dissect/hex_dump.hpp"

namespace fs = std::filesystem;
using tcpscope::dissect::DissectContext;
using tcpscope::dissect::DissectionNode;
using tcpscope::dissect::FrameBytes;
using tcpscope::dissect::FrameBytesReader;
using tcpscope::test::findInPath;
using tcpscope::test::runCommand;

namespace {

std::string samplePath(const std::string& name) {
    return (fs::path(TCPSCOPE_SOURCE_DIR) / "samples" / name).string();
}

/// The record offset of every frame of `path` (index 0 is frame 1), and each frame's bytes, as the
/// streaming reader gives them.
struct SequentialFrames {
    std::vector<uint64_t> offsets;
    std::vector<std::vector<uint8_t>> bytes;
};

SequentialFrames readAll(const std::string& path, uint32_t upToFrame = UINT32_MAX, bool keepBytes = true) {
    SequentialFrames frames;
    const auto reader = tcpscope::CaptureReader::open(path);
    tcpscope::RawPacket raw;
    while (frames.offsets.size() < upToFrame && reader->next(raw)) {
        frames.offsets.push_back(raw.recordOffset);
        if (keepBytes) {
            frames.bytes.emplace_back(raw.data, raw.data + raw.capturedLength);
        }
    }
    return frames;
}

/// Frame `frame` of `path` dissected with raw sequence numbers.
std::vector<DissectionNode> dissectFrameOf(const std::string& path, uint32_t frame) {
    const SequentialFrames frames = readAll(path, frame, false);
    REQUIRE(frames.offsets.size() == frame);
    FrameBytesReader reader(path);
    const std::optional<FrameBytes> bytes = reader.read(frames.offsets.back());
    REQUIRE(bytes);
    return tcpscope::dissect::dissectFrame(*bytes, DissectContext{frame, std::nullopt, std::nullopt});
}

const DissectionNode* find(const std::vector<DissectionNode>& layers, std::string_view field) {
    for (const DissectionNode& layer : layers) {
        if (const DissectionNode* found = layer.find(field)) {
            return found;
        }
    }
    return nullptr;
}

std::string valueOf(const std::vector<DissectionNode>& layers, std::string_view field) {
    const DissectionNode* node = find(layers, field);
    return node != nullptr ? node->value : std::string("<absent>");
}

std::vector<std::string> valuesOf(const std::vector<DissectionNode>& layers, std::string_view field) {
    std::vector<std::string> values;
    std::vector<const DissectionNode*> stack;
    for (const DissectionNode& layer : layers) {
        stack.push_back(&layer);
    }
    std::reverse(stack.begin(), stack.end());
    while (!stack.empty()) {
        const DissectionNode* node = stack.back();
        stack.pop_back();
        if (node->field == field) {
            values.push_back(node->value);
        }
        for (auto child = node->children.rbegin(); child != node->children.rend(); ++child) {
            stack.push_back(&*child);
        }
    }
    return values;
}

/// Why tshark cannot be asked here, or empty.
std::string tsharkMissing() {
    return findInPath("tshark") ? std::string() : "tshark not found";
}

/// tshark's values of `fields` for every frame `filter` matches: frame number -> one string per field.
std::map<uint32_t, std::vector<std::string>> tsharkFields(const std::string& path, const std::string& filter,
                                                          const std::vector<std::string>& fields,
                                                          const std::vector<std::string>& extra = {}) {
    std::vector<std::string> command{"tshark", "-n", "-r", path, "-Y", filter, "-T", "fields", "-e", "frame.number"};
    for (const std::string& field : fields) {
        command.push_back("-e");
        command.push_back(field);
    }
    command.insert(command.end(), extra.begin(), extra.end());
    const auto result = runCommand(command);
    REQUIRE(result.started);
    std::map<uint32_t, std::vector<std::string>> rows;
    std::istringstream lines(result.out);
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> cells;
        std::istringstream cellStream(line);
        for (std::string cell; std::getline(cellStream, cell, '\t');) {
            cells.push_back(cell);
        }
        cells.resize(fields.size() + 1);
        rows[static_cast<uint32_t>(std::stoul(cells[0]))] = std::vector<std::string>(cells.begin() + 1, cells.end());
    }
    return rows;
}

/// Compares `fields` of every frame `filter` matches in each of `samples` with tshark's values.
void compareWithTshark(std::initializer_list<const char*> samples, const std::string& filter,
                       const std::vector<std::string>& fields) {
    for (const char* name : samples) {
        const std::string path = samplePath(name);
        const auto expected = tsharkFields(path, filter, fields);
        REQUIRE(!expected.empty());
        const SequentialFrames frames = readAll(path, UINT32_MAX, false);
        FrameBytesReader reader(path);
        for (const auto& [frame, values] : expected) {
            const auto bytes = reader.read(frames.offsets.at(frame - 1));
            REQUIRE(bytes);
            const auto layers = tcpscope::dissect::dissectFrame(*bytes, DissectContext{frame, {}, {}});
            for (size_t i = 0; i < fields.size(); ++i) {
                INFO(name << " frame " << frame << " " << fields[i]);
                std::string ours = valueOf(layers, fields[i]);
                if (fields[i] == "ip.id") {
                    ours = ours.substr(0, ours.find(' '));  // "0x873e (34622)": tshark prints the hex
                }
                CHECK(ours == (values[i].empty() ? std::string("<absent>") : values[i]));
            }
        }
    }
}

}  // namespace

TEST_CASE("a SYN's options and IP header are the fields Wireshark names", "[dissect]") {
    const auto layers = dissectFrameOf(samplePath("rtt/rtt-defer-accept-client.pcap"), 1);
    CHECK(valueOf(layers, "tcp.options.mss_val") == "1460");
    CHECK(valueOf(layers, "tcp.options.wscale.shift") == "10");
    CHECK(valueOf(layers, "tcp.options.wscale.multiplier") == "1024");
    CHECK(find(layers, "tcp.options.sack_perm") != nullptr);
    CHECK(valueOf(layers, "tcp.options.timestamp.tsval") == "4013376177");
    CHECK(valueOf(layers, "tcp.options.timestamp.tsecr") == "0");
    CHECK(valueOf(layers, "tcp.options.nop").empty());
    CHECK(valueOf(layers, "ip.ttl") == "64");
    CHECK(valueOf(layers, "ip.id") == "0x873e (34622)");
    CHECK(valueOf(layers, "ip.flags.df") == "Set");
    CHECK(valueOf(layers, "eth.src") == "e6:50:0c:ad:21:a8");
    CHECK(valueOf(layers, "eth.type") == "IPv4 (0x0800)");
    CHECK(valueOf(layers, "tcp.flags") == "0x002 (SYN)");
    CHECK(valueOf(layers, "tcp.hdr_len") == "40 bytes (10)");
}

TEST_CASE("every SYN's options match tshark's on the samples", "[dissect][tshark]") {
    if (const std::string reason = tsharkMissing(); !reason.empty()) {
        WARN("test skipped: " << reason);
        return;
    }
    const std::vector<std::string> fields{"tcp.options.mss_val",
                                          "tcp.options.wscale.shift",
                                          "tcp.options.timestamp.tsval",
                                          "tcp.options.timestamp.tsecr",
                                          "ip.ttl",
                                          "ip.id",
                                          "tcp.window_size_value",
                                          "tcp.srcport"};
    compareWithTshark(
        {"rtt/rtt-defer-accept-client.pcap", "rtt/rtt-duplicated.pcapng", "proxy-nagle.pcap", "http-close.pcap"},
        "tcp.flags.syn == 1", fields);
}

TEST_CASE("every TCP frame's addresses, lengths and header fields match tshark's on the samples", "[dissect][tshark]") {
    if (const std::string reason = tsharkMissing(); !reason.empty()) {
        WARN("test skipped: " << reason);
        return;
    }
    const std::vector<std::string> fields{"eth.src",
                                          "eth.dst",
                                          "ip.src",
                                          "ip.dst",
                                          "ip.len",
                                          "ip.ttl",
                                          "tcp.srcport",
                                          "tcp.dstport",
                                          "tcp.seq_raw",
                                          "tcp.ack_raw",
                                          "tcp.len",
                                          "tcp.window_size_value",
                                          "tcp.urgent_pointer",
                                          "tcp.options.timestamp.tsval",
                                          "tcp.options.timestamp.tsecr"};
    compareWithTshark({"rtt/rtt-tls-like.pcap", "rtt/rtt-duplicated.pcapng", "http-keepalive.pcap"}, "tcp && !icmp",
                      fields);
}

TEST_CASE("a SACK block's edges are tshark's, raw and relative to the receiver's base", "[dissect][tshark]") {
    const std::string path = samplePath("seeds/ab-no-keepalive.pcap.gz");
    constexpr uint32_t kSackFrame = 133572;
    const SequentialFrames frames = readAll(path, kSackFrame, false);
    REQUIRE(frames.offsets.size() == kSackFrame);
    FrameBytesReader reader(path);  // gzip: read on from the start
    const auto bytes = reader.read(frames.offsets.back());
    REQUIRE(bytes);
    const auto raw = tcpscope::dissect::dissectFrame(*bytes, DissectContext{kSackFrame, {}, {}});
    CHECK(valueOf(raw, "tcp.options.sack_le") == "4278683242");
    CHECK(valueOf(raw, "tcp.options.sack_re") == "4278683243");
    CHECK(valueOf(raw, "tcp.options.sack.count") == "1");
    const auto relative =
        tcpscope::dissect::dissectFrame(*bytes, DissectContext{kSackFrame, 1000U, 4278683242U - 1259U});
    CHECK(valueOf(relative, "tcp.options.sack_le") == "1259 (relative)");
    CHECK(valueOf(relative, "tcp.options.sack_re") == "1260 (relative)");
    if (const std::string reason = tsharkMissing(); !reason.empty()) {
        WARN("test skipped: " << reason << " (the edges were checked against the values tshark gave once)");
        return;
    }
    const auto expected = tsharkFields(path, "frame.number == 133572", {"tcp.options.sack_le", "tcp.options.sack_re"},
                                       {"-o", "tcp.relative_sequence_numbers:FALSE"});
    REQUIRE(expected.count(kSackFrame) == 1);
    CHECK(expected.at(kSackFrame)[0] == "4278683242");
    CHECK(expected.at(kSackFrame)[1] == "4278683243");
}

TEST_CASE("a frame's bytes are shown as tshark -x shows them", "[dissect]") {
    const std::string path = samplePath("rtt/rtt-defer-accept-client.pcap");
    const SequentialFrames frames = readAll(path, 13);
    const auto lines = tcpscope::dissect::hexDumpLines(frames.bytes.back());
    const std::vector<std::string> expected{"0000  4a 6e a0 db fd 9d e6 50 0c ad 21 a8 08 00 45 00   Jn.....P..!...E.",
                                            "0010  00 40 87 40 40 00 40 06 b3 72 7f 01 01 01 7f 01   .@.@@.@..r......",
                                            "0020  01 02 b8 0a 24 b8 f1 9d c9 f6 eb 90 5c 4b 80 18   ....$.......\\K..",
                                            "0030  00 3f 51 d2 00 00 01 01 08 0a ef 37 46 ae b0 a0   .?Q........7F...",
                                            "0040  07 31 73 65 6e 64 73 2d 61 74 2d 31 73 0a         .1sends-at-1s."};
    CHECK(lines == expected);
    const auto layers = dissectFrameOf(path, 13);
    const DissectionNode* payload = find(layers, "tcp.payload");
    REQUIRE(payload != nullptr);
    CHECK(payload->label == "TCP payload (12 bytes)");
    CHECK(payload->value == "sends-at-1s.");
    CHECK(payload->offset == 66);
    CHECK(payload->length == 12);
    if (const std::string reason = tsharkMissing(); reason.empty()) {
        const auto result = runCommand({"tshark", "-n", "-r", path, "-Y", "frame.number == 13", "-x"});
        std::string ours;
        for (const std::string& line : lines) {
            ours += line + '\n';
        }
        CHECK(result.out.substr(0, ours.size()) == ours);
    }
}

TEST_CASE("bytes the snapshot length cut off are said as Wireshark says them", "[dissect]") {
    // http-keepalive.pcap was captured with -s 128: frame 6 carries 1263 payload bytes, 54 captured.
    const auto layers = dissectFrameOf(samplePath("http-keepalive.pcap"), 6);
    const DissectionNode* payload = find(layers, "tcp.payload");
    REQUIRE(payload != nullptr);
    CHECK(payload->label == "TCP payload (1263 bytes)");
    REQUIRE(!payload->children.empty());
    CHECK(payload->children.front().label == tcpscope::dissect::kPacketSizeLimited);
    CHECK(valueOf(layers, "frame.len") == "1329 bytes");
    CHECK(valueOf(layers, "frame.cap_len") == "128 bytes");
}

TEST_CASE("the direct read of pcap and pcapng gives the streaming reader's bytes, in any order", "[dissect]") {
    for (const char* name : {"rtt/rtt-duplicated.pcapng", "proxy-nagle.pcap", "proxy-nagle-ttt.pcapng"}) {
        INFO(name);
        const std::string path = samplePath(name);
        const SequentialFrames frames = readAll(path);
        REQUIRE(!frames.offsets.empty());
        FrameBytesReader reader(path);
        // Backwards, then forwards: a click may go anywhere.
        for (size_t i = frames.offsets.size(); i-- > 0;) {
            const auto bytes = reader.read(frames.offsets[i]);
            REQUIRE(bytes);
            REQUIRE(bytes->data == frames.bytes[i]);
        }
        for (size_t i = 0; i < frames.offsets.size(); i += 7) {
            const auto bytes = reader.read(frames.offsets[i]);
            REQUIRE(bytes);
            REQUIRE(bytes->data == frames.bytes[i]);
        }
        CHECK_FALSE(reader.read(frames.offsets.back() + 1));
        CHECK(!reader.problem().empty());
    }
}

TEST_CASE("IPv6 and the rarer TCP options are dissected from bytes built in code", "[dissect]") {
    // Raw IPv6 (LINKTYPE_RAW): a SYN from 2001:db8::1 to 2001:db8::2 with MSS, TFO cookie request,
    // an MPTCP option, an unknown kind 253 and EOL.
    const std::vector<uint8_t> options{2,    4,    0x05, 0xa0, 34, 2, 30, 4, 0x00, 0x81, 253, 4,
                                       0xab, 0xcd, 1,    0,    0,  0, 0,  0, 0,    0,    0,   0};
    const auto segmentBytes = static_cast<uint8_t>(20 + options.size());
    const std::vector<uint8_t> ipv6{
        0x60, 0x0a, 0xbc, 0xde, 0x00, segmentBytes, 6,    57,   0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0,
        0,    0,    0,    1,    0x20, 0x01,         0x0d, 0xb8, 0,    0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 2};
    const std::vector<uint8_t> tcp{
        0xc0, 0x00, 0x01, 0xbb, 0, 0, 0, 100, 0, 0, 0, 0, static_cast<uint8_t>(segmentBytes / 4 << 4),
        0x02, 0xff, 0xff, 0,    0, 0, 0};
    std::vector<uint8_t> frame;
    for (const std::vector<uint8_t>* part : {&ipv6, &tcp, &options}) {
        std::copy(part->begin(), part->end(), std::back_inserter(frame));
    }
    FrameBytes bytes;
    bytes.data = frame;
    bytes.originalLength = static_cast<uint32_t>(frame.size());
    bytes.linkType = 101;
    const auto layers = tcpscope::dissect::dissectFrame(bytes, DissectContext{1, 100U, {}});
    CHECK(valueOf(layers, "ipv6.src") == "2001:db8::1");
    CHECK(valueOf(layers, "ipv6.dst") == "2001:db8::2");
    CHECK(valueOf(layers, "ipv6.hlim") == "57");
    CHECK(valueOf(layers, "ipv6.flow") == "0xabcde");
    CHECK(valueOf(layers, "ipv6.tclass") == "0x00");
    CHECK(valueOf(layers, "ipv6.plen") == std::to_string(20 + options.size()));
    CHECK(valueOf(layers, "tcp.options.mss_val") == "1440");
    CHECK(find(layers, "tcp.options.tfo.request") != nullptr);
    CHECK(valueOf(layers, "tcp.options.mptcp.subtype") == "0");
    CHECK(valueOf(layers, "tcp.options.unknown.payload") == "abcd");
    CHECK(valueOf(layers, "tcp.seq") == "0    (relative sequence number)");
    CHECK(valuesOf(layers, "tcp.options.eol").size() == 9);  // EOL, then the padding read as EOLs
    CHECK(valueOf(layers, "raw") == "No link information available");
}

TEST_CASE("tcpscope-cli packets -V prints the details and bytes of the packets -Y keeps", "[dissect][cli]") {
    const std::string path = samplePath("rtt/rtt-defer-accept-client.pcap");
    const auto result =
        runCommand({TCPSCOPE_CLI, "packets", path, "-V", "-Y", "frame.number == 1 || frame.number == 13"});
    REQUIRE(result.ok());
    CHECK(result.out.starts_with("Frame 1: 74 bytes on wire (592 bits), 74 bytes captured (592 bits)\n"));
    CHECK(result.out.find("\n        TCP Option - Maximum segment size: 1460 bytes\n") != std::string::npos);
    CHECK(result.out.find("\n            Shift count: 10\n") != std::string::npos);
    CHECK(result.out.find("\n    Time to Live: 64\n") != std::string::npos);
    CHECK(result.out.find("\nFrame 13: 78 bytes on wire") != std::string::npos);
    CHECK(result.out.find("\n0040  07 31 73 65 6e 64 73 2d 61 74 2d 31 73 0a         .1sends-at-1s.\n") !=
          std::string::npos);
    CHECK(result.out.find("Frame 2:") == std::string::npos);
}

TEST_CASE("Linux cooked v2 and BSD loopback headers are dissected, then the IP and TCP inside", "[dissect]") {
    // IPv4 (20 bytes, TTL 33) and a bare TCP ACK (20 bytes) from 10.0.0.1:1000 to 10.0.0.2:80.
    const std::vector<uint8_t> ipAndTcp{0x45, 0, 0,  40, 0x12, 0x34, 0x40, 0,    33, 6,  0, 0, 10, 0,
                                        0,    1, 10, 0,  0,    2,    0x03, 0xe8, 0,  80, 0, 0, 0,  1,
                                        0,    0, 0,  2,  0x50, 0x10, 0x01, 0x00, 0,  0,  0, 0};
    const std::vector<uint8_t> sll2{0x08, 0x00, 0, 0, 0, 0, 0, 3, 0, 1, 4, 6, 0x02, 0x42, 0xac, 0x11, 0, 2, 0, 0};
    const std::vector<uint8_t> loopback{2, 0, 0, 0};  // AF_INET in the capturing host's (little-endian) order
    for (const auto& [linkType, header, field, expected] :
         {std::tuple{276U, sll2, "sll.ifindex", "3"}, std::tuple{0U, loopback, "null.family", "IP (2)"}}) {
        FrameBytes bytes;
        bytes.data = header;
        std::copy(ipAndTcp.begin(), ipAndTcp.end(), std::back_inserter(bytes.data));
        bytes.originalLength = static_cast<uint32_t>(bytes.data.size());
        bytes.linkType = linkType;
        const auto layers = tcpscope::dissect::dissectFrame(bytes, DissectContext{1, {}, {}});
        INFO("link type " << linkType);
        CHECK(valueOf(layers, field) == expected);
        CHECK(valueOf(layers, "ip.ttl") == "33");
        CHECK(valueOf(layers, "ip.id") == "0x1234 (4660)");
        CHECK(valueOf(layers, "tcp.dstport") == "80");
        CHECK(valueOf(layers, "tcp.flags") == "0x010 (ACK)");
        CHECK(find(layers, "tcp.options") == nullptr);
    }
}
