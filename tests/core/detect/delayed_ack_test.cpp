// Nagle meeting the delayed ACK, on conversations built in code: the request/response shape of
// the proxy sample (a small write, a second small write held until the peer's late pure ACK),
// and the situations that must not be called a stall.
#include <catch2/catch.hpp>

#include "detect/delayed_ack_detector.hpp"
#include "stall_test_session.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;
constexpr uint16_t kAck = tcpflag::kAck;

using NagleSession = DetectorSession<DelayedAckDetector>;

// SYN, SYN-ACK, ACK announcing an MSS of 1460 on both sides.
void handshakeWithMss(NagleSession& s, uint32_t clientIsn, uint32_t serverIsn, bool ipv6 = false) {
    auto syn = Session::fromClient(clientIsn, 0, tcpflag::kSyn);
    syn.options.mss = 1460;
    auto synAck = Session::fromServer(serverIsn, clientIsn + 1, tcpflag::kSyn | kAck);
    synAck.options.mss = 1460;
    auto ack = Session::fromClient(clientIsn + 1, serverIsn + 1, kAck);
    for (auto* spec : {&syn, &synAck, &ack}) {
        if (ipv6) {
            const bool client = spec->sourcePort == 40000;
            spec->source = client ? "2001:db8::1" : "2001:db8::2";
            spec->destination = client ? "2001:db8::2" : "2001:db8::1";
        }
    }
    s.push(syn, 0);
    s.push(synAck, 0.1);
    s.push(ack, 0.2);
}

// One request sent as 128 + 35 bytes where the 35 wait for the server's delayed ACK, then the
// server's reply. Returns the time after it.
double nagleRequest(NagleSession& s, uint32_t& clientSeq, uint32_t& serverSeq, double atMs, uint32_t firstBytes = 128,
                    uint32_t heldBytes = 35, double ackDelayMs = 40, bool ipv6 = false) {
    auto v6 = [ipv6](SegmentSpec spec) {
        if (ipv6) {
            const bool client = spec.sourcePort == 40000;
            spec.source = client ? "2001:db8::1" : "2001:db8::2";
            spec.destination = client ? "2001:db8::2" : "2001:db8::1";
        }
        return spec;
    };
    s.push(v6(Session::fromClient(clientSeq, serverSeq, kAckPsh, firstBytes)), atMs);
    clientSeq += firstBytes;
    s.push(v6(Session::fromServer(serverSeq, clientSeq, kAck)), atMs + ackDelayMs);
    s.push(v6(Session::fromClient(clientSeq, serverSeq, kAckPsh, heldBytes)), atMs + ackDelayMs + 0.05);
    clientSeq += heldBytes;
    s.push(v6(Session::fromServer(serverSeq, clientSeq, kAckPsh, 100)), atMs + ackDelayMs + 1);
    serverSeq += 100;
    s.push(v6(Session::fromClient(clientSeq, serverSeq, kAck)), atMs + ackDelayMs + 1.1);
    return atMs + ackDelayMs + 5;
}

}  // namespace

TEST_CASE("a stall at the very first exchange is reported at once", "[detect][nagle]") {
    NagleSession s;
    handshakeWithMss(s, 1000, 5000);
    uint32_t clientSeq = 1001;
    uint32_t serverSeq = 5001;
    nagleRequest(s, clientSeq, serverSeq, 1);
    const auto findings = s.findings(FindingKind::DelayedAckStall);
    REQUIRE(findings.size() == 1);  // no minimum number of stalls before speaking
    const Finding& stall = findings[0];
    CHECK(stall.severity == Severity::Warning);
    CHECK(stall.connection == 0);
    CHECK(stall.evidence["sender"] == "10.0.0.1:40000");
    CHECK(stall.evidence["stalls"] == 1);
    CHECK(stall.frames == std::vector<uint32_t>{4, 5, 6});
    CHECK(stall.durationMs == Approx(40.05).margin(0.01));
    CHECK(stall.evidence["instances"][0]["held_bytes"] == 35);
    CHECK(stall.evidence["instances"][0]["previous_bytes"] == 128);
    CHECK(stall.summary.find("TCP_NODELAY") != std::string::npos);
}

TEST_CASE("stalls grow one finding per connection and side, with totals and share", "[detect][nagle]") {
    NagleSession s;
    handshakeWithMss(s, 1000, 5000);
    uint32_t clientSeq = 1001;
    uint32_t serverSeq = 5001;
    double at = 1;
    for (int i = 0; i < 10; ++i) {
        at = nagleRequest(s, clientSeq, serverSeq, at);
    }
    s.finish();
    const auto findings = s.findings(FindingKind::DelayedAckStall);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].evidence["stalls"] == 10);
    CHECK(findings[0].durationMs == Approx(400.5).margin(0.1));
    CHECK(findings[0].evidence["share_of_connection"].get<double>() > 0.8);
}

TEST_CASE("sequence numbers wrapping around 2^32 do not hide a stall", "[detect][nagle]") {
    NagleSession s;
    handshakeWithMss(s, 0xFFFFFF00u, 5000);
    uint32_t clientSeq = 0xFFFFFF01u;
    uint32_t serverSeq = 5001;
    double at = 1;
    for (int i = 0; i < 3; ++i) {  // the first request crosses the wrap
        at = nagleRequest(s, clientSeq, serverSeq, at);
    }
    const auto findings = s.findings(FindingKind::DelayedAckStall);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].evidence["stalls"] == 3);
}

TEST_CASE("full-sized segments are never a Nagle stall", "[detect][nagle]") {
    NagleSession s;
    handshakeWithMss(s, 1000, 5000);
    uint32_t clientSeq = 1001;
    uint32_t serverSeq = 5001;
    // A full segment, a late ACK, then another full segment: Nagle does not hold full segments.
    nagleRequest(s, clientSeq, serverSeq, 1, 1460, 1460);
    CHECK(s.findings(FindingKind::DelayedAckStall).empty());
}

TEST_CASE("a prompt ACK, a piggybacked ACK or a late next write are not stalls", "[detect][nagle]") {
    NagleSession s;
    handshakeWithMss(s, 1000, 5000);
    uint32_t clientSeq = 1001;
    uint32_t serverSeq = 5001;
    // The ACK comes within the delayed-ACK floor: a quick ACK.
    double at = nagleRequest(s, clientSeq, serverSeq, 1, 128, 35, 5);
    // The server answers with data (piggybacked ACK), 40 ms later: a slow server, not Nagle.
    s.push(Session::fromClient(clientSeq, serverSeq, kAckPsh, 128), at);
    clientSeq += 128;
    s.push(Session::fromServer(serverSeq, clientSeq, kAckPsh, 50), at + 40);
    serverSeq += 50;
    s.push(Session::fromClient(clientSeq, serverSeq, kAckPsh, 35), at + 40.05);
    clientSeq += 35;
    at += 50;
    // A late pure ACK, but the client's next write comes 30 ms after it: nothing was held.
    s.push(Session::fromClient(clientSeq, serverSeq, kAckPsh, 128), at);
    clientSeq += 128;
    s.push(Session::fromServer(serverSeq, clientSeq, kAck), at + 40);
    s.push(Session::fromClient(clientSeq, serverSeq, kAckPsh, 35), at + 70);
    CHECK(s.findings(FindingKind::DelayedAckStall).empty());
}

TEST_CASE("the delayed-ACK floor is a threshold the user sets", "[detect][nagle]") {
    DetectorOptions options;
    options.delayedAckFloorMs = 50;
    NagleSession s(options);
    handshakeWithMss(s, 1000, 5000);
    uint32_t clientSeq = 1001;
    uint32_t serverSeq = 5001;
    nagleRequest(s, clientSeq, serverSeq, 1);  // 40 ms: below the floor
    CHECK(s.findings(FindingKind::DelayedAckStall).empty());
    nagleRequest(s, clientSeq, serverSeq, 100, 128, 35, 200);  // Windows-like 200 ms
    CHECK(s.findings(FindingKind::DelayedAckStall).size() == 1);
}

TEST_CASE("IPv6 connections get the same diagnosis", "[detect][nagle]") {
    NagleSession s;
    handshakeWithMss(s, 1000, 5000, true);
    uint32_t clientSeq = 1001;
    uint32_t serverSeq = 5001;
    nagleRequest(s, clientSeq, serverSeq, 1, 128, 35, 40, true);
    const auto findings = s.findings(FindingKind::DelayedAckStall);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].evidence["sender"] == "[2001:db8::1]:40000");
}

TEST_CASE("a side's FIN gives back its small segment waiting or late-ACKed, the peer's stays until its own FIN",
          "[detect][nagle]") {
    NagleSession s;
    handshakeWithMss(s, 1000, 5000);
    uint32_t clientSeq = 1001;
    uint32_t serverSeq = 5001;
    // The client's last write is small and the server ACKs it late: nothing follows it to hold back.
    s.push(Session::fromClient(clientSeq, serverSeq, kAckPsh, 20), 1);
    clientSeq += 20;
    s.push(Session::fromServer(serverSeq, clientSeq, kAck), 41);
    // The server answers with a small segment the client ACKs late.
    s.push(Session::fromServer(serverSeq, clientSeq, kAckPsh, 30), 42);
    serverSeq += 30;
    s.push(Session::fromClient(clientSeq, serverSeq, kAck), 82);
    CHECK(s.detector.pendingHeld() == 2);
    s.push(Session::fromClient(clientSeq, serverSeq, tcpflag::kFin | kAck), 83);
    ++clientSeq;
    CHECK(s.detector.pendingHeld() == 1);  // the server may still send data after the client's FIN
    s.push(Session::fromServer(serverSeq, clientSeq, tcpflag::kFin | kAck), 84);
    ++serverSeq;
    CHECK(s.detector.pendingHeld() == 0);
    s.push(Session::fromClient(clientSeq, serverSeq, kAck), 85);
    s.finish();
    CHECK(s.findings(FindingKind::DelayedAckStall).empty());
}

TEST_CASE("a small segment with the FIN is still held back by the late ACK of the one before", "[detect][nagle]") {
    NagleSession s;
    handshakeWithMss(s, 1000, 5000);
    uint32_t clientSeq = 1001;
    uint32_t serverSeq = 5001;
    s.push(Session::fromClient(clientSeq, serverSeq, kAckPsh, 128), 1);
    clientSeq += 128;
    s.push(Session::fromServer(serverSeq, clientSeq, kAck), 41);
    s.push(Session::fromClient(clientSeq, serverSeq, tcpflag::kFin | kAckPsh, 35), 41.05);  // the last write and close
    clientSeq += 36;
    CHECK(s.findings(FindingKind::DelayedAckStall).size() == 1);
    CHECK(s.detector.pendingHeld() == 0);
    s.finish();
}
