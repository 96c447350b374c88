// Copies of a frame, two to four of each, told from retransmissions: by the IP ID or the TCP
// timestamps where they differ between packets, and for data without either by time and silence
// (the same data again within a millisecond, the peer silent in between, is no retransmission).
#include "engine/duplicate_frames.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <utility>

#include "decode/packet_decoder.hpp"
#include "support/packet_builder.hpp"
#include "support/sequence_capture.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

constexpr int64_t kUs = 1000;

// The segment as the decoder reads it from the built frame.
TcpSegment segmentOf(const SegmentSpec& spec) {
    TcpSegment segment;
    REQUIRE(decodePacket(buildPacket(spec, 0).raw(), segment) == DecodeStatus::Tcp);
    return segment;
}

SegmentSpec dataFrom(const std::string& source, const std::string& destination, uint32_t seq, uint32_t length) {
    SegmentSpec spec;
    spec.source = source;
    spec.destination = destination;
    spec.seq = seq;
    spec.ack = 1;
    spec.flags = tcpflag::kAck | tcpflag::kPsh;
    spec.payloadLength = length;
    return spec;
}

}  // namespace

TEST_CASE("data without IP ID or timestamps: copies within a millisecond with the peer silent are copies",
          "[engine][duplicates]") {
    const TcpSegment data = segmentOf(dataFrom("10.0.0.1", "10.0.0.2", 1, 100));
    SegmentSpec answerSpec = dataFrom("10.0.0.2", "10.0.0.1", 1, 10);
    std::swap(answerSpec.sourcePort, answerSpec.destinationPort);
    const TcpSegment answer = segmentOf(answerSpec);

    SECTION("the second to fourth copy, microseconds apart") {
        DuplicateFrames frames;
        CHECK_FALSE(frames.isCopy(data, 0));
        CHECK(frames.isCopy(data, 3 * kUs));
        CHECK(frames.isCopy(data, 6 * kUs));
        CHECK(frames.isCopy(data, 9 * kUs));
    }
    SECTION("other connections' segments in between do not matter, the peer's do") {
        DuplicateFrames frames;
        CHECK_FALSE(frames.isCopy(data, 0));
        CHECK_FALSE(frames.isCopy(segmentOf(dataFrom("10.0.0.7", "10.0.0.8", 5, 10)), 1 * kUs));
        CHECK(frames.isCopy(data, 2 * kUs));
        CHECK_FALSE(frames.isCopy(answer, 3 * kUs));
        CHECK_FALSE(frames.isCopy(data, 4 * kUs));  // the peer spoke: it may have asked for it again
    }
    SECTION("later than a millisecond it may be a retransmission on a timer") {
        DuplicateFrames frames;
        CHECK_FALSE(frames.isCopy(data, 0));
        CHECK_FALSE(frames.isCopy(data, 2'000 * kUs));
    }
    SECTION("segments without data and without IP ID are never copies: RSTs and duplicate ACKs come alike") {
        DuplicateFrames frames;
        SegmentSpec spec = dataFrom("10.0.0.1", "10.0.0.2", 1, 0);
        spec.flags = tcpflag::kRst;
        const TcpSegment reset = segmentOf(spec);
        CHECK_FALSE(frames.isCopy(reset, 0));
        CHECK_FALSE(frames.isCopy(reset, 2 * kUs));
    }
}

TEST_CASE("each frame held two to four times, without IP ID or timestamps: every Nagle stall is still found",
          "[engine][duplicates]") {
    const SequenceScript script{.holdMs = 40.1, .silenceMs = 100, .requests = 4};
    const std::vector<BuiltPacket> original = nagleConversation(script);
    std::vector<BuiltPacket> copied;
    for (size_t index = 0; index < original.size(); ++index) {
        const size_t copies = 2 + index % 3;
        for (size_t copy = 0; copy < copies; ++copy) {
            BuiltPacket packet = original[index];
            packet.tsNs += static_cast<int64_t>(copy) * 3 * kUs;
            copied.push_back(std::move(packet));
        }
    }
    std::stable_sort(copied.begin(), copied.end(),
                     [](const BuiltPacket& a, const BuiltPacket& b) { return a.tsNs < b.tsNs; });

    const CaptureAnalysis analysis = analyzeBuilt(copied);
    uint32_t stalls = 0;
    for (const Finding& finding : analysis.findings) {
        if (finding.kind == FindingKind::DelayedAckStall) {
            stalls += finding.totalSpans;
        }
    }
    CHECK(stalls == 4);
    // The copies of data are left out; those of the handshake, the pure ACKs and the FINs stay (nothing
    // tells them from a duplicate ACK), which the tracker reads as such.
    uint64_t dataCopies = 0;
    for (size_t index = 0; index < original.size(); ++index) {
        TcpSegment segment;
        REQUIRE(decodePacket(original[index].raw(), segment) == DecodeStatus::Tcp);
        dataCopies += segment.payloadLength > 0 ? 1 + index % 3 : 0;
    }
    CHECK(analysis.engine->counters().duplicates == dataCopies);
}
