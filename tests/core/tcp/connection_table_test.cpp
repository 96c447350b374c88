// The connection table's sequence states live in reusable slots: a connection takes one when it
// opens or a late segment revives it, and gives it back past TIME_WAIT or when a newer generation
// takes its tuple. A slot taken again must start afresh, whatever the connection before left in it.
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "tcp/tcp_tracker.hpp"

using namespace tcpscope;

namespace {

constexpr int64_t kMs = 1'000'000;
constexpr uint16_t kFinAck = tcpflag::kFin | tcpflag::kAck;
constexpr uint16_t kSynAck = tcpflag::kSyn | tcpflag::kAck;

// A tracker fed segments between 10.0.0.1:`clientPort` and 10.0.0.2:80, as the engine feeds it.
class Tracking {
public:
    AnalysisFlags push(uint16_t clientPort, bool fromClient, uint32_t seq, uint32_t ack, uint16_t flags, int64_t atMs,
                       uint32_t length = 0) {
        const std::array<uint8_t, 4> clientAddress{10, 0, 0, 1};
        const std::array<uint8_t, 4> serverAddress{10, 0, 0, 2};
        const Endpoint client{IpAddress::fromV4(clientAddress.data()), clientPort};
        const Endpoint server{IpAddress::fromV4(serverAddress.data()), 80};
        TcpSegment segment;
        segment.source = fromClient ? client : server;
        segment.destination = fromClient ? server : client;
        segment.seq = seq;
        segment.ack = ack;
        segment.flags = flags;
        segment.window = 1000;
        segment.payloadLength = length;
        const TupleRef tuple = tuples_.number(segment.source, segment.destination);
        return tracker.track(segment, tuple, atMs * kMs, ++frame_).analysis;
    }
    // Handshake, 100 bytes of data with a retransmission, FINs both ways and the last ACK, from `atMs`.
    std::vector<AnalysisFlags> closedConnection(uint16_t clientPort, int64_t atMs) {
        return {push(clientPort, true, 100, 0, tcpflag::kSyn, atMs),
                push(clientPort, false, 900, 101, kSynAck, atMs + 1),
                push(clientPort, true, 101, 901, tcpflag::kAck, atMs + 2),
                push(clientPort, true, 101, 901, tcpflag::kAck, atMs + 3, 100),
                push(clientPort, true, 101, 901, tcpflag::kAck, atMs + 4, 100),
                push(clientPort, false, 901, 201, tcpflag::kAck, atMs + 5),
                push(clientPort, true, 201, 901, kFinAck, atMs + 6),
                push(clientPort, false, 901, 202, kFinAck, atMs + 7),
                push(clientPort, true, 202, 902, tcpflag::kAck, atMs + 8)};
    }
    [[nodiscard]] size_t statesHeld() const { return tracker.table().sequenceStatesHeld(); }

    TcpTracker tracker;

private:
    TupleNumbering tuples_;
    uint32_t frame_ = 0;
};

}  // namespace

TEST_CASE("connection table: a sequence state is held from a connection's first segment to TIME_WAIT's end",
          "[tcp][sequence-slots]") {
    Tracking t;
    t.closedConnection(40000, 0);
    t.closedConnection(40001, 10);
    CHECK(t.statesHeld() == 2);
    // 60 s after the first connection's last packet: its state goes, the second's stays.
    t.push(40002, true, 7, 0, tcpflag::kSyn, 60'008);
    CHECK(t.statesHeld() == 2);
    t.push(40002, true, 7, 0, tcpflag::kSyn, 60'018);
    CHECK(t.statesHeld() == 1);
    // A late FIN of the first connection revives its state (a slot again): still a retransmission.
    const AnalysisFlags late = t.push(40000, false, 901, 202, kFinAck, 60'020);
    CHECK(has(late, AnalysisFlag::Retransmission));
    CHECK(t.statesHeld() == 2);
    CHECK(t.tracker.table().size() == 3);
}

TEST_CASE("connection table: a slot taken again starts afresh, whatever its earlier connection left in it",
          "[tcp][sequence-slots]") {
    Tracking fresh;
    const std::vector<AnalysisFlags> alone = fresh.closedConnection(41000, 0);

    Tracking reused;
    for (uint16_t port = 40000; port < 40010; ++port) {
        reused.closedConnection(port, port - 40000);
    }
    // Every state aged and given back, then a connection on a new tuple takes one of their slots.
    reused.push(40000, true, 5, 0, tcpflag::kRst, 70'000);
    REQUIRE(reused.statesHeld() == 1);
    const std::vector<AnalysisFlags> after = reused.closedConnection(41000, 70'000);
    CHECK(after == alone);
    const Connection& connection = reused.tracker.table().at(reused.tracker.table().size() - 1);
    const Connection& reference = fresh.tracker.table().at(0);
    for (const Side side : {Side::Client, Side::Server}) {
        CHECK(connection.sequence[sideIndex(side)].baseSeq == reference.sequence[sideIndex(side)].baseSeq);
        CHECK(connection.sequence[sideIndex(side)].nextSeq == reference.sequence[sideIndex(side)].nextSeq);
        CHECK(connection.from(side).retransmittedBytes == reference.from(side).retransmittedBytes);
    }
}

TEST_CASE("connection table: the memory of sequence states follows the states held at once", "[tcp][sequence-slots]") {
    // Waves of 1,100 connections (more than a chunk of slots), each wave 61 s after the one before,
    // when every state of the one before is given back.
    Tracking t;
    const auto sequenceBytes = [&t] { return t.tracker.table().bytesHeld() - t.tracker.table().connections().bytesHeld(); };
    constexpr uint16_t kWave = 1100;
    size_t bytesAfterSecondWave = 0;
    for (uint16_t wave = 0; wave < 5; ++wave) {
        for (uint16_t i = 0; i < kWave; ++i) {
            t.closedConnection(static_cast<uint16_t>(10000 + wave * kWave + i), wave * 61'000);
        }
        CHECK(t.statesHeld() == kWave);
        if (wave == 1) {
            bytesAfterSecondWave = sequenceBytes();
        }
    }
    CHECK(sequenceBytes() == bytesAfterSecondWave);
    CHECK(sequenceBytes() < 2 * kWave * sizeof(std::array<SequenceState, 2>));
}

TEST_CASE("connection table: a new generation gives its tuple's earlier state back", "[tcp][sequence-slots]") {
    Tracking t;
    t.closedConnection(40000, 0);
    REQUIRE(t.statesHeld() == 1);
    // A SYN with another initial sequence number 1 s later: a new generation, with a fresh state.
    const AnalysisFlags syn = t.push(40000, true, 5000, 0, tcpflag::kSyn, 1'000);
    CHECK(has(syn, AnalysisFlag::ReusedPorts));
    CHECK(t.tracker.table().size() == 2);
    CHECK(t.statesHeld() == 1);
    const AnalysisFlags synAck = t.push(40000, false, 7000, 5001, kSynAck, 1'001);
    CHECK_FALSE(has(synAck, AnalysisFlag::Retransmission));
    CHECK_FALSE(has(synAck, AnalysisFlag::ReusedPorts));
    // Retiring the earlier generation leaves the newer one's state alone.
    t.tracker.retire(0);
    CHECK(t.statesHeld() == 1);
    t.tracker.retire(1);
    CHECK(t.statesHeld() == 0);
}
