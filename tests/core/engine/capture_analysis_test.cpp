#include <catch2/catch.hpp>

#include <filesystem>

#include "capture/capture_error.hpp"
#include "analysis/capture_analysis.hpp"
#include "support/packet_builder.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

constexpr int64_t kStartNs = 1'700'000'000'000'000'000;
constexpr int64_t kMs = 1'000'000;

// A short connection from `clientPort`, with timestamps starting at `startMs`.
std::vector<BuiltPacket> shortConnection(uint16_t clientPort, int64_t startMs, uint32_t linkType) {
    auto spec = [clientPort](bool fromClient, uint32_t seq, uint32_t ack, uint16_t flags, uint32_t length) {
        SegmentSpec s;
        s.sourcePort = clientPort;
        s.seq = seq;
        s.ack = ack;
        s.flags = flags;
        s.payloadLength = length;
        if (!fromClient) {
            std::swap(s.source, s.destination);
            std::swap(s.sourcePort, s.destinationPort);
        }
        return s;
    };
    const int64_t t = kStartNs + startMs * kMs;
    return {buildPacket(spec(true, 100, 0, tcpflag::kSyn, 0), t, linkType),
            buildPacket(spec(false, 500, 101, tcpflag::kSyn | tcpflag::kAck, 0), t + 1 * kMs, linkType),
            buildPacket(spec(true, 101, 501, tcpflag::kAck, 0), t + 2 * kMs, linkType),
            buildPacket(spec(true, 101, 501, tcpflag::kAck | tcpflag::kPsh, 20), t + 3 * kMs, linkType),
            buildPacket(spec(false, 501, 121, tcpflag::kAck | tcpflag::kFin, 0), t + 4 * kMs, linkType),
            buildPacket(spec(true, 121, 502, tcpflag::kAck | tcpflag::kFin, 0), t + 5 * kMs, linkType)};
}

struct TempCapture {
    explicit TempCapture(const std::vector<BuiltPacket>& packets, uint32_t linkType)
        : path(uniqueTempPath("engine")) {
        PcapFileOptions options;
        options.linkType = linkType;
        writePcapFile(path, packets, options);
    }
    ~TempCapture() { std::filesystem::remove(path); }
    TempCapture(const TempCapture&) = delete;
    TempCapture& operator=(const TempCapture&) = delete;
    std::filesystem::path path;
};

}  // namespace

TEST_CASE("every supported link type yields the same connection", "[engine]") {
    const uint32_t linkType = GENERATE(linktype::kEthernet, linktype::kLinuxSll, linktype::kLinuxSll2,
                                       linktype::kNull, linktype::kLoop, linktype::kRaw, linktype::kIpv4);
    const TempCapture file(shortConnection(40000, 0, linkType), linkType);
    const CaptureAnalysis analysis = analyzeCaptures({file.path.string()}, {});
    INFO("link type " << linkType);
    REQUIRE(analysis.engine->counters().tcp == 6);
    REQUIRE(analysis.engine->connections().size() == 1);
    const Connection& c = analysis.engine->connections()[0];
    CHECK(c.client.toString() == "10.0.0.1:40000");
    CHECK(c.state == ConnectionState::Closed);
    CHECK(c.activeCloser == Side::Server);
    CHECK(c.from(Side::Client).payloadBytes == 20);
}

TEST_CASE("several files are merged in time order and frames numbered across them", "[engine]") {
    // Two captures whose connections interleave in time.
    const TempCapture first(shortConnection(40000, 0, linktype::kEthernet), linktype::kEthernet);
    const TempCapture second(shortConnection(40001, 0, linktype::kLinuxSll2), linktype::kLinuxSll2);
    const CaptureAnalysis analysis = analyzeCaptures({first.path.string(), second.path.string()}, {});
    REQUIRE(analysis.inputs.size() == 2);
    const PacketIndex& packets = analysis.engine->packets();
    REQUIRE(packets.size() == 12);
    for (size_t i = 1; i < packets.size(); ++i) {
        CHECK(packets.tsNs(i - 1) <= packets.tsNs(i));
        CHECK(packets.at(i).frame == i + 1);
    }
    // Equal timestamps keep the order the files were given.
    CHECK(packets.at(0).fileIndex == 0);
    CHECK(packets.at(1).fileIndex == 1);
    CHECK(analysis.engine->connections().size() == 2);
    CHECK(analysis.engine->counters().framesByLinkType.size() == 2);
}

TEST_CASE("a filter keeps frame numbers and drops what does not match", "[engine]") {
    const TempCapture file(shortConnection(40000, 0, linktype::kEthernet), linktype::kEthernet);
    AnalysisOptions options;
    options.engine.filter = "tcp[tcpflags] & tcp-syn != 0";
    const CaptureAnalysis analysis = analyzeCaptures({file.path.string()}, options);
    const PacketIndex& packets = analysis.engine->packets();
    REQUIRE(packets.size() == 2);
    CHECK(packets.at(0).frame == 1);
    CHECK(packets.at(1).frame == 2);
    CHECK(analysis.engine->counters().filteredOut == 4);
}

TEST_CASE("a file that cannot be opened is an error naming it", "[engine]") {
    try {
        analyzeCaptures({"/nonexistent/capture.pcap"}, {});
        FAIL("no error");
    } catch (const CaptureError& error) {
        CHECK(error.problem().file == "/nonexistent/capture.pcap");
        CHECK(std::string(error.what()).find("/nonexistent/capture.pcap") != std::string::npos);
    }
}

TEST_CASE("a stop request ends the load early with the results so far", "[engine]") {
    const TempCapture file(shortConnection(40000, 0, linktype::kEthernet), linktype::kEthernet);
    StopToken stop;
    stop.requestStop();
    LoadProgress progress;
    const CaptureAnalysis analysis = analyzeCaptures({file.path.string()}, {}, &progress, &stop);
    CHECK(analysis.engine->counters().frames == 0);
    CHECK(progress.finished);
}

TEST_CASE("the packet index keeps about 30 bytes per packet", "[engine]") {
    STATIC_REQUIRE(PacketIndex::kBytesPerPacket == 30);
    PacketIndex index;
    IndexedPacket packet;
    packet.payloadLength = 70000;
    packet.tcpFlags = 0x12;
    packet.fromServer = true;
    packet.analysis = bit(AnalysisFlag::ReusedPorts) | bit(AnalysisFlag::Retransmission);
    packet.recordOffset = (uint64_t{1} << 40) + 24;
    packet.fileIndex = 3;
    for (int i = 0; i < 70000; ++i) {
        packet.frame = static_cast<uint32_t>(i + 1);
        index.append(packet);
    }
    const IndexedPacket back = index.at(69999);
    CHECK(back.frame == 70000);
    CHECK(back.payloadLength == 70000);
    CHECK(back.tcpFlags == 0x12);
    CHECK(back.fromServer);
    CHECK(back.analysis == packet.analysis);
    CHECK(back.recordOffset == packet.recordOffset);
    CHECK(back.fileIndex == 3);
    CHECK(index.memoryBytes() < 2 * PacketIndex::kChunkSize * 31);  // two chunks, nothing kept whole
}

TEST_CASE("the packet index finds a frame's position, skipping frames that are not TCP", "[engine]") {
    PacketIndex index;
    IndexedPacket packet;
    for (uint32_t frame : {2u, 3u, 7u, 9u}) {
        packet.frame = frame;
        index.append(packet);
    }
    CHECK(index.positionOfFrame(7) == 2);
    CHECK(index.positionOfFrame(4) == index.size());  // a non-TCP frame
    CHECK(index.firstAtOrAfterFrame(4) == 2);
    CHECK(index.firstAtOrAfterFrame(1) == 0);
    CHECK(index.firstAtOrAfterFrame(10) == index.size());
    CHECK(index.frame(3) == 9);
}

TEST_CASE("without the packet index an analysis finds the same connections and findings", "[engine]") {
    const std::string sample = GENERATE(std::string("proxy-nagle.pcap"), std::string("port-reuse-collision.pcap"),
                                        std::string("churn-exhaustion.pcap"));
    const std::string path = std::string(TCPSCOPE_SOURCE_DIR) + "/samples/" + sample;
    const CaptureAnalysis kept = analyzeCaptures({path}, {});
    AnalysisOptions options;
    options.engine.keepPacketIndex = false;
    const CaptureAnalysis dropped = analyzeCaptures({path}, options);

    REQUIRE(kept.engine->packets().size() == kept.engine->counters().tcp);
    CHECK(dropped.engine->packets().size() == 0);
    CHECK(dropped.engine->counters().tcp == kept.engine->counters().tcp);
    REQUIRE(dropped.engine->connections().size() == kept.engine->connections().size());
    for (size_t id = 0; id < kept.engine->connections().size(); ++id) {
        const Connection& a = kept.engine->connections()[id];
        const Connection& b = dropped.engine->connections()[id];
        CHECK(a.state == b.state);
        CHECK(a.lastTsNs == b.lastTsNs);
        CHECK(a.from(Side::Client).payloadBytes == b.from(Side::Client).payloadBytes);
        CHECK(a.from(Side::Server).packets == b.from(Side::Server).packets);
    }
    REQUIRE(!kept.findings.empty());
    REQUIRE(dropped.findings.size() == kept.findings.size());
    for (size_t i = 0; i < kept.findings.size(); ++i) {
        CHECK(dropped.findings[i].kind == kept.findings[i].kind);
        CHECK(dropped.findings[i].frames == kept.findings[i].frames);
        CHECK(dropped.findings[i].durationMs == kept.findings[i].durationMs);
        CHECK(dropped.findings[i].evidence == kept.findings[i].evidence);
    }
}
