// Stalls placed along the path, with packets built in code: a client and a server 5 ms apart, a
// capture point on each host (the server's clock 2.47 s ahead), and one request that the client
// had to send again after its retransmission timer, lost on the way or answered by an ACK lost on
// the way back; or a window the server closed for a while.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <vector>

#include "points/point_analysis.hpp"
#include "support/packet_builder.hpp"

namespace {

using tcpscope::AnalysisOptions;
using tcpscope::CapturePoint;
using tcpscope::Finding;
using tcpscope::FindingKind;
using tcpscope::FindingPlacement;
using tcpscope::PointsAnalysis;
using tcpscope::WaitPartKind;
namespace test = tcpscope::test;

constexpr int64_t kStartNs = 1'700'000'000'000'000'000;
constexpr int64_t kOneWayNs = 5'000'000;
constexpr int64_t kServerClockAheadNs = 2'470'000'000;
constexpr int64_t kRetransmissionTimerNs = 300'000'000;

// What goes wrong in round 10: the request is lost between the hosts, or the server's ACK of it
// is, or the server's window closes for kWindowClosedNs (its application not reading).
enum class Lost { Request, AckOfRequest, None };
constexpr int64_t kWindowClosedNs = 100'000'000;

struct BuiltExchange {
    std::filesystem::path atClient;
    std::filesystem::path atServer;

    BuiltExchange(const BuiltExchange&) = delete;
    BuiltExchange& operator=(const BuiltExchange&) = delete;
    BuiltExchange() = default;
    ~BuiltExchange() {
        std::filesystem::remove(atClient);
        std::filesystem::remove(atServer);
    }
};

// A handshake, 20 request/response rounds 100 ms apart, each answer ACKed; in round 10 the
// request (or the server's ACK of it) is lost between the hosts, and the client resends the
// request when its retransmission timer fires, 300 ms after the first try. With the ACK lost, the
// server's point also misses two of the client's pure ACKs later on (a capture that dropped them),
// so that the client's point, which saw more, is the one the connection is analysed from.
void buildExchange(BuiltExchange& built, Lost lost) {
    std::vector<test::BuiltPacket> atClient;
    std::vector<test::BuiltPacket> atServer;
    uint32_t clientSeq = 1000;
    uint32_t serverSeq = 5000;
    uint16_t clientId = 1;
    uint16_t serverId = 1;
    int64_t nowNs = kStartNs;
    using namespace tcpscope::tcpflag;
    // Sends a segment now from its sender's next sequence number, seen at the sender's point and,
    // unless `arrives` is false, kOneWayNs later at the other host's point.
    // Returns when it arrived (or would have).
    auto send = [&](bool fromClient, uint16_t flags, uint32_t bytes, bool arrives = true, uint16_t window = 65535) {
        test::SegmentSpec spec;
        if (!fromClient) {
            std::swap(spec.source, spec.destination);
            std::swap(spec.sourcePort, spec.destinationPort);
        }
        spec.seq = fromClient ? clientSeq : serverSeq;
        spec.ack = (flags & kAck) != 0 ? (fromClient ? serverSeq : clientSeq) : 0;
        spec.flags = flags;
        spec.payloadLength = bytes;
        spec.window = window;
        spec.ipId = fromClient ? clientId++ : serverId++;
        const int64_t arrivesNs = nowNs + kOneWayNs;
        const int64_t atClientNs = fromClient ? nowNs : arrivesNs;
        const int64_t atServerNs = (fromClient ? arrivesNs : nowNs) + kServerClockAheadNs;
        if (fromClient || arrives) {
            atClient.push_back(test::buildPacket(spec, atClientNs));
        }
        if (!fromClient || arrives) {
            atServer.push_back(test::buildPacket(spec, atServerNs));
        }
        return arrivesNs;
    };
    // What the sender's next segment starts from.
    auto consume = [&](bool fromClient, uint32_t count) { (fromClient ? clientSeq : serverSeq) += count; };
    nowNs = send(true, kSyn, 0) + 100'000;
    consume(true, 1);
    nowNs = send(false, kSyn | kAck, 0) + 100'000;
    consume(false, 1);
    nowNs = send(true, kAck, 0) + 100'000;
    for (int round = 0; round < 20; ++round) {
        if (round == 10) {
            const int64_t firstTryNs = nowNs;
            const int64_t arrivedNs = send(true, kAck | kPsh, 100, lost != Lost::Request);
            if (lost == Lost::AckOfRequest) {
                nowNs = arrivedNs + 100'000;
                consume(true, 100);
                send(false, kAck, 0, false);  // the server's ACK of it, lost on the way back
                consume(true, -100);          // the client resends from where it was
            }
            nowNs = firstTryNs + kRetransmissionTimerNs;  // then the same bytes again, with a new IP ID
        }
        const bool dropAtServer = lost == Lost::AckOfRequest && (round == 15 || round == 16);
        nowNs = send(true, kAck | kPsh, 100) + 100'000;
        consume(true, 100);
        if (round == 10 && lost == Lost::None) {
            send(false, kAck, 0, true, 0);  // the window closes, then opens again
            nowNs += kWindowClosedNs;
            nowNs = send(false, kAck, 0) + 100'000;
        }
        nowNs = send(false, kAck | kPsh, 300) + 100'000;
        consume(false, 300);
        nowNs = send(true, kAck, 0, !dropAtServer) + 100'000'000;
    }
    auto byTime = [](const test::BuiltPacket& a, const test::BuiltPacket& b) { return a.tsNs < b.tsNs; };
    std::sort(atClient.begin(), atClient.end(), byTime);
    std::sort(atServer.begin(), atServer.end(), byTime);
    built.atClient = test::uniqueTempPath("placement-client");
    built.atServer = test::uniqueTempPath("placement-server");
    test::writePcapFile(built.atClient, atClient);
    test::writePcapFile(built.atServer, atServer);
}

PointsAnalysis analyse(const BuiltExchange& built) {
    return tcpscope::analyzePoints(
        {CapturePoint{"client", {built.atClient.string()}}, CapturePoint{"server", {built.atServer.string()}}},
        AnalysisOptions{});
}

const Finding* onlyRetransmissionStall(const PointsAnalysis& result) {
    const Finding* found = nullptr;
    for (const Finding& finding : result.analysis.findings) {
        if (finding.kind == FindingKind::RetransmissionStall) {
            CHECK(found == nullptr);
            found = &finding;
        }
    }
    return found;
}

}  // namespace

TEST_CASE("a request lost between the client and the server: placed on that hop", "[points]") {
    BuiltExchange built;
    buildExchange(built, Lost::Request);
    const PointsAnalysis result = analyse(built);
    REQUIRE(result.summary.points.at(1).clock.separable);
    CHECK(result.summary.points.at(1).clock.clock.offsetNs / 1e6 == Approx(2470).margin(0.01));
    const Finding* stall = onlyRetransmissionStall(result);
    REQUIRE(stall != nullptr);
    const std::optional<FindingPlacement>& placement = result.analysis.enrichments.of(stall->id).placement;
    REQUIRE(placement.has_value());
    CHECK(placement->waitedAt == "client");
    REQUIRE(placement->spans.size() == 1);
    const tcpscope::SpanPlacement& span = placement->spans.front();
    REQUIRE(span.lostBetween.has_value());
    CHECK(span.lostBetween->from == "client");
    CHECK(span.lostBetween->to == "server");
    CHECK_FALSE(span.reachedReceiver);
    REQUIRE(span.parts.size() == 1);
    CHECK(span.parts.front().kind == WaitPartKind::RetransmissionTimer);
    CHECK(span.parts.front().from == "client");
    CHECK(span.parts.front().ms == Approx(kRetransmissionTimerNs / 1e6).margin(0.01));
}

TEST_CASE("a request that arrived but whose ACK was lost: not lost on the way there", "[points]") {
    BuiltExchange built;
    buildExchange(built, Lost::AckOfRequest);
    const PointsAnalysis result = analyse(built);
    const Finding* stall = onlyRetransmissionStall(result);
    REQUIRE(stall != nullptr);
    const std::optional<FindingPlacement>& placement = result.analysis.enrichments.of(stall->id).placement;
    REQUIRE(placement.has_value());
    REQUIRE(placement->spans.size() == 1);
    const tcpscope::SpanPlacement& span = placement->spans.front();
    CHECK_FALSE(span.lostBetween.has_value());
    CHECK(span.reachedReceiver);
}

TEST_CASE("one capture point: no finding is placed", "[points]") {
    BuiltExchange built;
    buildExchange(built, Lost::Request);
    const PointsAnalysis result =
        tcpscope::analyzePoints({CapturePoint{"client", {built.atClient.string()}}}, AnalysisOptions{});
    const Finding* stall = onlyRetransmissionStall(result);
    REQUIRE(stall != nullptr);
    CHECK_FALSE(result.analysis.enrichments.of(stall->id).placement.has_value());
    CHECK(result.sightings == nullptr);
}

TEST_CASE("a window closed by the server's application: placed on the server", "[points]") {
    BuiltExchange built;
    buildExchange(built, Lost::None);
    const PointsAnalysis result = analyse(built);
    const Finding* closed = nullptr;
    for (const Finding& finding : result.analysis.findings) {
        if (finding.kind == FindingKind::ZeroWindowStall) {
            closed = &finding;
        }
    }
    REQUIRE(closed != nullptr);
    const std::optional<FindingPlacement>& placement = result.analysis.enrichments.of(closed->id).placement;
    REQUIRE(placement.has_value());
    CHECK(placement->waitedAt == "client");  // the client's data waited
    REQUIRE(placement->spans.size() == 1);
    const tcpscope::SpanPlacement& span = placement->spans.front();
    REQUIRE(span.parts.size() == 1);
    CHECK(span.parts.front().kind == WaitPartKind::WaitingOnApplication);
    CHECK(span.parts.front().from == "server");
    CHECK(span.parts.front().ms == Approx(kWindowClosedNs / 1e6).margin(0.01));
}
