// Capture points with packets built in code: one connection seen near the client (point A, the
// reference) and near the server (point B), 5 ms apart, with B's clock off by a known offset and
// drift. The fit must give them back, and say so when it cannot.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <functional>
#include <random>

#include "points/point_analysis.hpp"
#include "support/packet_builder.hpp"

namespace {

using tcpscope::AnalysisOptions;
using tcpscope::CapturePoint;
using tcpscope::PointsAnalysis;
namespace test = tcpscope::test;

constexpr int64_t kStartNs = 1'700'000'000'000'000'000;
constexpr double kOneWayNs = 5'000'000;  // the hop between the two points

// B's clock: `offsetNs` ahead at the start, running `driftPpm` fast.
struct SkewedClock {
    double offsetNs = 0;
    double driftPpm = 0;
    [[nodiscard]] int64_t read(int64_t trueNs) const {
        return trueNs + std::llround(offsetNs + driftPpm * 1e-6 * static_cast<double>(trueNs - kStartNs));
    }
};

// What each point keeps of a segment: all by default.
using Keep = std::function<bool(size_t index, bool fromClient)>;

struct BuiltPoints {
    std::filesystem::path nearClient;
    std::filesystem::path nearServer;
    size_t segments = 0;

    ~BuiltPoints() {
        std::filesystem::remove(nearClient);
        std::filesystem::remove(nearServer);
    }
};

// A request of 100 bytes and a response of 300 every 200 ms for `seconds`, each answered by a pure
// ACK, and a handshake. Each segment leaves its sender at a true time, reaches the far point 5 ms
// (plus up to 2 ms of queueing) later.
void buildConversation(BuiltPoints& built, double seconds, const SkewedClock& clockB, const Keep& keepAtB) {
    std::mt19937 random(27);
    std::uniform_real_distribution<double> queueing(0, 2'000'000);
    std::vector<test::BuiltPacket> atA;
    std::vector<test::BuiltPacket> atB;
    uint32_t clientSeq = 1000;
    uint32_t serverSeq = 5000;
    uint16_t clientId = 1;
    uint16_t serverId = 1;
    int64_t nowNs = kStartNs;
    size_t index = 0;
    auto send = [&](bool fromClient, uint16_t flags, uint32_t bytes) {
        test::SegmentSpec spec;
        if (!fromClient) {
            std::swap(spec.source, spec.destination);
            std::swap(spec.sourcePort, spec.destinationPort);
        }
        spec.seq = fromClient ? clientSeq : serverSeq;
        spec.ack = (flags & tcpscope::tcpflag::kAck) != 0 ? (fromClient ? serverSeq : clientSeq) : 0;
        spec.flags = flags;
        spec.payloadLength = bytes;
        spec.ipId = fromClient ? clientId++ : serverId++;
        const uint32_t consumed = bytes + ((flags & tcpscope::tcpflag::kSyn) != 0 ? 1 : 0);
        (fromClient ? clientSeq : serverSeq) += consumed;
        const int64_t arrivesNs = nowNs + std::llround(kOneWayNs + queueing(random));
        const int64_t atANs = fromClient ? nowNs : arrivesNs;
        const int64_t atBTrueNs = fromClient ? arrivesNs : nowNs;
        atA.push_back(test::buildPacket(spec, atANs));
        if (keepAtB(index, fromClient)) {
            atB.push_back(test::buildPacket(spec, clockB.read(atBTrueNs)));
        }
        ++index;
        nowNs = arrivesNs + 100'000;  // the other side answers 0.1 ms after it arrived
    };
    using namespace tcpscope::tcpflag;
    send(true, kSyn, 0);
    send(false, kSyn | kAck, 0);
    send(true, kAck, 0);
    const auto rounds = static_cast<int>(seconds / 0.2);
    for (int round = 0; round < rounds; ++round) {
        send(true, kAck | kPsh, 100);
        send(false, kAck | kPsh, 300);
        send(true, kAck, 0);
        nowNs += 150'000'000;
    }
    auto byTime = [](const test::BuiltPacket& a, const test::BuiltPacket& b) { return a.tsNs < b.tsNs; };
    std::sort(atA.begin(), atA.end(), byTime);
    std::sort(atB.begin(), atB.end(), byTime);
    built.nearClient = test::uniqueTempPath("points-a");
    built.nearServer = test::uniqueTempPath("points-b");
    test::writePcapFile(built.nearClient, atA);
    test::writePcapFile(built.nearServer, atB);
    built.segments = index;
}

PointsAnalysis analyseBoth(const BuiltPoints& built) {
    return tcpscope::analyzePoints({CapturePoint{"client-side", {built.nearClient.string()}},
                                    CapturePoint{"server-side", {built.nearServer.string()}}},
                                   AnalysisOptions{});
}

}  // namespace

TEST_CASE("a point whose clock runs 50 ppm fast: offset and drift recovered", "[points]") {
    BuiltPoints built;
    const SkewedClock clockB{1'234'567'000, 50};
    buildConversation(built, 120, clockB, [](size_t, bool) { return true; });
    const PointsAnalysis result = analyseBoth(built);
    const auto& b = result.summary.points.at(1).clock;
    REQUIRE(b.linked);
    REQUIRE(b.separable);
    REQUIRE(b.driftMeasured);
    // Offsets are given at the reference's first packet: the SYN, sent at the start.
    CHECK(b.clock.offsetNs / 1e6 == Approx(1234.567).margin(0.02));
    CHECK(b.clock.drift * 1e6 == Approx(50).margin(1));
    REQUIRE(b.driftUncertaintyPpm.has_value());
    CHECK(std::abs(b.clock.drift * 1e6 - 50) < 3 * *b.driftUncertaintyPpm);
    REQUIRE(b.uncertaintyMs.has_value());
    CHECK(*b.uncertaintyMs < 0.1);
    CHECK(std::abs(b.clock.offsetNs / 1e6 - 1234.567) < 3 * *b.uncertaintyMs);
    REQUIRE(result.summary.hops.size() == 1);
    const auto& hop = result.summary.hops.front().fit;
    CHECK(hop.matched == built.segments);
    REQUIRE(hop.firstToSecond.has_value());
    REQUIRE(hop.secondToFirst.has_value());
    // The floor of each direction is the 5 ms line; queueing (0-2 ms) puts the median near 6 ms.
    CHECK(hop.firstToSecond->medianMs == Approx(6).margin(0.3));
    CHECK(hop.secondToFirst->medianMs == Approx(6).margin(0.3));
    // Both points saw everything: the connection is analysed once, from the point nearest the side
    // that sent most of its data (the server: 300-byte answers to 100-byte requests).
    REQUIRE(result.analysis.engine->connections().size() == 1);
    CHECK(result.summary.points[0].analysedSegments == 0);
    CHECK(result.summary.points[1].analysedSegments == built.segments);
    CHECK(result.analysis.engine->counters().tcp == built.segments);
}

TEST_CASE("a point without drift: none is claimed", "[points]") {
    BuiltPoints built;
    buildConversation(built, 60, SkewedClock{-730'000'000, 0}, [](size_t, bool) { return true; });
    const PointsAnalysis result = analyseBoth(built);  // kept: `b` refers into it
    const auto& b = result.summary.points.at(1).clock;
    CHECK(b.clock.offsetNs / 1e6 == Approx(-730).margin(0.02));
    CHECK(std::abs(b.clock.drift * 1e6) < 1);
}

TEST_CASE("a point that misses packets: still fitted, and the point that saw more is analysed", "[points]") {
    BuiltPoints built;
    buildConversation(built, 60, SkewedClock{2'470'000'000, 0}, [](size_t index, bool) { return index % 7 != 3; });
    const PointsAnalysis result = analyseBoth(built);
    const auto& b = result.summary.points.at(1).clock;
    REQUIRE(b.separable);
    CHECK(b.clock.offsetNs / 1e6 == Approx(2470).margin(0.02));
    REQUIRE(b.uncertaintyMs.has_value());
    CHECK(std::abs(b.clock.offsetNs / 1e6 - 2470) < 3 * *b.uncertaintyMs);
    const auto& hop = result.summary.hops.front().fit;
    CHECK(hop.matched < built.segments);
    CHECK(hop.matched == result.summary.points[1].tcpSegments);
    CHECK(result.summary.points[0].analysedSegments == built.segments);
    CHECK(result.analysis.engine->counters().tcp == built.segments);
    // With the points given the other way round, the fuller point still wins.
    const PointsAnalysis swapped = tcpscope::analyzePoints({CapturePoint{"server-side", {built.nearServer.string()}},
                                                            CapturePoint{"client-side", {built.nearClient.string()}}},
                                                           AnalysisOptions{});
    CHECK(swapped.summary.points[1].analysedSegments == built.segments);
    CHECK(swapped.summary.points[0].analysedSegments == 0);
    CHECK(swapped.summary.points[1].clock.clock.offsetNs / 1e6 == Approx(-2470).margin(0.02));
}

TEST_CASE("a point that sees one direction only: the offset is marked as not separable", "[points]") {
    BuiltPoints built;
    buildConversation(built, 30, SkewedClock{500'000'000, 0}, [](size_t, bool fromClient) { return fromClient; });
    const PointsAnalysis result = analyseBoth(built);
    const auto& b = result.summary.points.at(1).clock;
    REQUIRE(b.linked);
    CHECK_FALSE(b.separable);
    CHECK_FALSE(b.uncertaintyMs.has_value());
    // What it can say: the offset plus the one-way delay (500 + 5 ms), nothing better.
    CHECK(b.clock.offsetNs / 1e6 == Approx(505).margin(0.01));
    const auto& hop = result.summary.hops.front().fit;
    CHECK_FALSE(hop.separable);
    CHECK_FALSE(hop.firstToSecond.has_value());
    CHECK_FALSE(hop.secondToFirst.has_value());
}
