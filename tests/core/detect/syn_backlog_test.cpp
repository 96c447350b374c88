// syn_backlog_overflow with handshakes built in code: SYNs dropped while the accept queue is
// full, final ACKs dropped (the SYN-ACK comes again), tcp_abort_on_overflow resets, and the
// look-alikes that must not count (TIME_WAIT collisions, firewalls, quick repeats).
#include <algorithm>
#include <catch2/catch.hpp>

#include "detect/syn_backlog_detector.hpp"
#include "stall_test_session.hpp"

using namespace tcpscope;
using tcpscope::test::segmentBetween;

namespace {

constexpr uint16_t kSyn = tcpflag::kSyn;
constexpr uint16_t kSynAck = tcpflag::kSyn | tcpflag::kAck;
constexpr uint16_t kAck = tcpflag::kAck;
constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;
constexpr uint16_t kFinAck = tcpflag::kFin | tcpflag::kAck;
constexpr uint16_t kRst = tcpflag::kRst;
constexpr uint16_t kRstAck = tcpflag::kRst | tcpflag::kAck;
constexpr uint32_t kServerIsn = 7000;

using BacklogSession = tcpscope::test::DetectorSession<SynBacklogDetector>;

// Clients of one listener; client i uses source port 40000 + i and ISN isns[i].
struct Clients {
    BacklogSession& session;
    std::string clientAddress = "10.0.0.1";
    std::string serverAddress = "10.0.0.2";
    uint16_t serverPort = 80;
    std::vector<uint32_t> isns;

    static uint16_t port(size_t client) { return static_cast<uint16_t>(40000 + client); }
    [[nodiscard]] uint32_t isn(size_t client) const { return isns.at(client); }

    uint32_t fromClient(size_t client, uint32_t seq, uint32_t ack, uint16_t flags, double atMs, uint32_t length = 0) {
        session.push(segmentBetween(clientAddress, port(client), serverAddress, serverPort, seq, ack, flags, length),
                     atMs);
        return session.lastFrame();  // its frame number
    }
    uint32_t fromServer(size_t client, uint32_t seq, uint32_t ack, uint16_t flags, double atMs, uint32_t length = 0) {
        session.push(segmentBetween(serverAddress, serverPort, clientAddress, port(client), seq, ack, flags, length),
                     atMs);
        return session.lastFrame();
    }
    uint32_t syn(size_t client, double atMs) { return fromClient(client, isn(client), 0, kSyn, atMs); }
    uint32_t synAck(size_t client, double atMs) {
        return fromServer(client, kServerIsn, isn(client) + 1, kSynAck, atMs);
    }
    uint32_t finalAck(size_t client, double atMs) {
        return fromClient(client, isn(client) + 1, kServerIsn + 1, kAck, atMs);
    }
    void answer(size_t client, double atMs) {
        synAck(client, atMs);
        finalAck(client, atMs + 0.05);
    }
    // Clients 0 to 2 start at once; only client 0 is answered, the SYNs of 1 and 2 are dropped and
    // retransmitted after 1 s.
    void twoSynsDropped() {
        syn(0, 0);
        syn(1, 0.01);
        syn(2, 0.02);
        answer(0, 0.1);
        syn(1, 1000.01);
        syn(2, 1000.02);
    }
};

Finding onlyFinding(const BacklogSession& session) {
    return session.onlyFinding(FindingKind::SynBacklogOverflow);
}

// A live capture's finding ends as the file's does.
void requireSameFinding(const Finding& live, const Finding& file) {
    CHECK(live.severity == file.severity);
    CHECK(live.durationMs == file.durationMs);
    CHECK(live.summary == file.summary);
    CHECK(live.evidence == file.evidence);
    CHECK(live.frames == file.frames);
}

}  // namespace

TEST_CASE("SYNs dropped by a full accept queue and retransmitted after 1 s, in a burst", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200, 300, 400, 0xFFFFFFFFu}};  // the last one wraps
    for (size_t i = 0; i < 5; ++i) {
        clients.syn(i, 0.01 * static_cast<double>(i));
    }
    clients.answer(0, 0.1);
    clients.answer(1, 0.2);
    std::vector<uint32_t> retransmittedFrames;
    for (size_t i = 2; i < 5; ++i) {
        retransmittedFrames.push_back(clients.syn(i, 1000 + 0.01 * static_cast<double>(i)));
    }
    for (size_t i = 2; i < 5; ++i) {
        clients.answer(i, 1000.1 + 0.1 * static_cast<double>(i));
    }
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.severity == Severity::Error);
    CHECK(finding.connection == kNoConnection);
    CHECK(finding.evidence["listener"] == "10.0.0.2:80");
    CHECK(finding.evidence["connections_delayed"] == 3);
    CHECK(finding.evidence["syn_retransmissions"] == 3);
    CHECK(finding.evidence["synack_retransmissions"] == 0);
    CHECK(finding.evidence["connections_unfinished"] == 0);
    CHECK(finding.evidence["peak_concurrent_handshakes"] == 5);
    CHECK(finding.evidence["peak_waiting_handshakes"] == 3);
    CHECK(finding.durationMs == Approx(3000).margin(0.01));
    CHECK(finding.evidence["delay_max_ms"].get<double>() == Approx(1000).margin(0.01));
    CHECK(finding.frames == retransmittedFrames);
    REQUIRE(finding.evidence["connections"].size() == 3);
    for (const auto& connection : finding.evidence["connections"]) {
        CHECK(connection["outcome"] == "established");
        CHECK(connection["delay_ms"].get<double>() == Approx(1000).margin(0.01));
    }
    CHECK(finding.evidence["connections"][2]["client"] == "10.0.0.1:40004");
    CHECK_THAT(finding.summary, Catch::Contains("accept queue was full") && Catch::Contains("somaxconn"));
}

TEST_CASE("the backoff chain of one SYN adds up to the delay until its last retransmission", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200, 300}};
    clients.syn(0, 0);
    clients.syn(1, 0.01);
    clients.syn(2, 0.02);
    clients.answer(0, 0.1);
    clients.syn(1, 1000);
    clients.syn(2, 1000);
    clients.answer(1, 1000.1);
    clients.syn(2, 3000);  // 1 s, then 2 s later
    clients.answer(2, 3000.1);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.evidence["connections_delayed"] == 2);
    CHECK(finding.evidence["syn_retransmissions"] == 3);
    CHECK(finding.evidence["delay_max_ms"].get<double>() == Approx(2999.98).margin(0.01));
    CHECK(finding.durationMs == Approx(999.99 + 2999.98).margin(0.01));
}

TEST_CASE("a handshake still unanswered at the end of the capture is unfinished", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200}};
    clients.syn(0, 0);
    clients.syn(1, 0.01);
    clients.answer(0, 0.1);
    clients.syn(1, 1000);
    clients.syn(1, 3000);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.evidence["connections_unfinished"] == 1);
    CHECK(finding.evidence["connections"][0]["outcome"] == "unfinished");
    CHECK(finding.durationMs == Approx(2999.99).margin(0.01));
    CHECK_THAT(finding.summary, Catch::Contains("1 never established"));
}

TEST_CASE("a lone SYN retransmission with no other handshake in flight is only information (packet loss)", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100}};
    clients.syn(0, 0);
    clients.syn(0, 1000);
    clients.answer(0, 1000.1);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.severity == Severity::Info);
    CHECK(finding.evidence["peak_concurrent_handshakes"] == 1);
    CHECK(finding.evidence["peak_waiting_handshakes"] == 1);
    CHECK_THAT(finding.summary, Catch::Contains("packet loss"));
}

TEST_CASE("SYNs that nothing ever answers (a firewall, a host that is down) are not a backlog", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200, 300}};
    for (size_t i = 0; i < 3; ++i) {
        clients.syn(i, 0);
        clients.syn(i, 1000);
        clients.syn(i, 3000);
    }
    s.finish();
    CHECK(s.findings(FindingKind::SynBacklogOverflow).empty());
}

TEST_CASE("SYNs repeated sooner than the retransmission minimum do not count", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200, 300}};
    for (size_t i = 0; i < 3; ++i) {
        clients.syn(i, 0);
    }
    for (size_t i = 0; i < 3; ++i) {
        clients.syn(i, 50);
        clients.answer(i, 51);
    }
    s.finish();
    CHECK(s.findings(FindingKind::SynBacklogOverflow).empty());
}

TEST_CASE("the retransmission minimum is an option", "[detect][backlog]") {
    DetectorOptions options;
    options.synRetransmitMinMs = 2000;
    BacklogSession s(options);
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200}};
    clients.syn(0, 0);
    clients.syn(1, 0);
    clients.answer(0, 0.1);
    clients.syn(1, 1000);
    clients.answer(1, 1000.1);
    s.finish();
    CHECK(s.findings(FindingKind::SynBacklogOverflow).empty());
}

TEST_CASE("a SYN-ACK resent because the listener dropped the client's final ACK", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200}};
    std::vector<uint32_t> resentFrames;
    for (size_t i = 0; i < 2; ++i) {
        const double start = 0.5 * static_cast<double>(i);
        clients.syn(i, start);
        clients.answer(i, start + 0.1);
        clients.fromClient(i, clients.isn(i) + 1, kServerIsn + 1, kAckPsh, start + 0.2, 10);
    }
    for (size_t i = 0; i < 2; ++i) {
        const double start = 0.5 * static_cast<double>(i);
        resentFrames.push_back(clients.synAck(i, start + 1000.1));  // the queue had no room for the ACK
        clients.finalAck(i, start + 1000.15);
        clients.fromServer(i, kServerIsn + 1, clients.isn(i) + 11, kAck, start + 1000.2);
    }
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.severity == Severity::Error);
    CHECK(finding.evidence["synack_retransmissions"] == 2);
    CHECK(finding.evidence["syn_retransmissions"] == 0);
    CHECK(finding.evidence["connections_delayed"] == 2);
    CHECK(finding.durationMs == Approx(2000).margin(0.01));
    CHECK(finding.frames == resentFrames);
    CHECK_THAT(finding.summary, Catch::Contains("resent its SYN-ACK 2 times"));
}

TEST_CASE("connections reset by the listener right after the handshake (tcp_abort_on_overflow)", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200, 300, 400}};
    for (size_t i = 0; i < 4; ++i) {
        clients.syn(i, 0.01 * static_cast<double>(i));
    }
    std::vector<uint32_t> resetFrames;
    for (size_t i = 0; i < 4; ++i) {
        const double at = 0.1 + 0.01 * static_cast<double>(i);
        clients.answer(i, at);
        if (i == 1 || i == 2) {
            resetFrames.push_back(clients.fromServer(i, kServerIsn + 1, 0, kRst, at + 0.1));
        }
    }
    // A server that answers and then resets is an application's choice, not an overflow.
    clients.fromClient(3, clients.isn(3) + 1, kServerIsn + 1, kAckPsh, 1, 10);
    clients.fromServer(3, kServerIsn + 1, clients.isn(3) + 11, kAckPsh, 2, 20);
    clients.fromServer(3, kServerIsn + 21, clients.isn(3) + 11, kRstAck, 3);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.severity == Severity::Error);
    CHECK(finding.evidence["connections_reset"] == 2);
    CHECK(finding.evidence["connections_delayed"] == 0);
    CHECK(finding.durationMs == 0);
    CHECK(finding.frames == resetFrames);
    CHECK(finding.evidence["connections"][0]["outcome"] == "reset");
    CHECK_THAT(finding.summary, Catch::Contains("tcp_abort_on_overflow"));
}

TEST_CASE("a SYN retransmitted after a TIME_WAIT's challenge ACK is port reuse, not backlog overflow",
          "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {1'000'000, 200, 300}};
    // The first connection on port 40000: data, the server closes first and keeps TIME_WAIT.
    clients.syn(0, 0);
    clients.answer(0, 0.1);
    clients.fromClient(0, 1'000'001, kServerIsn + 1, kAckPsh, 1, 100);
    clients.fromServer(0, kServerIsn + 1, 1'000'101, kFinAck, 2);
    clients.fromClient(0, 1'000'101, kServerIsn + 2, kFinAck, 3);
    clients.fromServer(0, kServerIsn + 2, 1'000'102, kAck, 4);
    // Other handshakes in flight at the same time, so that a burst is there.
    clients.syn(1, 5);
    clients.syn(2, 5);
    // The same tuple again with a lower ISN: the TIME_WAIT answers with a bare ACK, the client
    // resets it, and the SYN comes again after its timer.
    clients.fromClient(0, 500, 0, kSyn, 5);
    clients.fromServer(0, kServerIsn + 2, 1'000'102, kAck, 5.01);
    clients.fromClient(0, 1'000'102, 0, kRst, 5.02);
    clients.answer(1, 6);
    clients.answer(2, 6);
    clients.fromClient(0, 500, 0, kSyn, 1005);
    clients.fromServer(0, 9000, 501, kSynAck, 1005.1);
    clients.fromClient(0, 501, 9001, kAck, 1005.2);
    s.finish();

    CHECK(s.engine.connections().size() == 4);
    CHECK(s.findings(FindingKind::SynBacklogOverflow).empty());
}

TEST_CASE("a SYN answered by a bare ACK or a RST on a fresh tuple does not count either", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200, 300}};
    clients.syn(0, 0);
    clients.syn(1, 0);
    clients.syn(2, 0);
    clients.answer(0, 0.1);
    clients.fromServer(1, 5555, 77, kAck, 0.2);  // stale state on the server
    clients.fromClient(1, 77, 0, kRst, 0.3);
    clients.fromServer(2, 0, clients.isn(2) + 1, kRstAck, 0.2);
    clients.syn(1, 1000);
    clients.answer(1, 1000.1);
    clients.syn(2, 1000);
    clients.answer(2, 1000.1);
    s.finish();
    CHECK(s.findings(FindingKind::SynBacklogOverflow).empty());
}

TEST_CASE("an IPv6 listener overflows the same way", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "2001:db8::1", "2001:db8::2", 443, {100, 200, 300}};
    for (size_t i = 0; i < 3; ++i) {
        clients.syn(i, 0);
    }
    clients.answer(0, 0.1);
    clients.syn(1, 1000);
    clients.syn(2, 1000);
    clients.answer(1, 1000.1);
    clients.answer(2, 1000.2);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.severity == Severity::Error);
    CHECK(finding.evidence["listener"] == "[2001:db8::2]:443");
    CHECK(finding.evidence["connections_delayed"] == 2);
    CHECK(finding.evidence["connections"][0]["client"] == "[2001:db8::1]:40001");
}

TEST_CASE("the finding appears as soon as the first delayed handshake is answered", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200, 300}};
    for (size_t i = 0; i < 3; ++i) {
        clients.syn(i, 0);
    }
    clients.answer(0, 0.1);
    clients.syn(1, 1000);
    REQUIRE(s.findings(FindingKind::SynBacklogOverflow).size() == 1);  // live: before the end of the input
    clients.answer(1, 1000.1);
    clients.syn(2, 1000);
    clients.answer(2, 1000.1);
    CHECK(onlyFinding(s).evidence["connections_delayed"] == 2);
}

TEST_CASE("sparse SYN losses among a steady stream of healthy handshakes are only information (packet loss)", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {}};
    constexpr size_t kConnections = 400;
    for (size_t i = 0; i < kConnections; ++i) {
        clients.isns.push_back(static_cast<uint32_t>(1000 * (i + 1)));
    }
    // A new connection every 5 ms, each answered after 25 ms and completed after 50 ms (a
    // 50 ms round trip): about ten handshakes in flight at any time. Two SYNs are lost.
    auto lost = [](size_t i) { return i == 10 || i == 12; };
    struct Event {
        double atMs;
        size_t client;
        int step;  // 0 SYN, 1 SYN-ACK, 2 ACK
    };
    std::vector<Event> events;
    for (size_t i = 0; i < kConnections; ++i) {
        const double start = 5.0 * static_cast<double>(i) + (lost(i) ? 1000 : 0);
        if (lost(i)) {
            events.push_back({5.0 * static_cast<double>(i), i, 0});
        }
        events.push_back({start, i, 0});
        events.push_back({start + 25, i, 1});
        events.push_back({start + 50, i, 2});
    }
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.atMs < b.atMs; });
    for (const Event& event : events) {
        if (event.step == 0) {
            clients.syn(event.client, event.atMs);
        } else if (event.step == 1) {
            clients.synAck(event.client, event.atMs);
        } else {
            clients.finalAck(event.client, event.atMs);
        }
    }
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.severity == Severity::Info);
    CHECK(finding.evidence["connections_delayed"] == 2);
    CHECK(finding.evidence["peak_waiting_handshakes"] == 2);
    CHECK(finding.durationMs == Approx(2000));
    CHECK_THAT(finding.summary, Catch::Contains("packet loss"));
}

TEST_CASE("live: a listener's finding is ongoing while dropped SYNs wait for their next retransmission",
          "[detect][backlog][clock]") {
    const auto at = [](double ms) {
        return tcpscope::test::Session::kStartNs + static_cast<int64_t>(ms * tcpscope::test::Session::kMs);
    };
    const auto conversation = [&at](BacklogSession& s, bool clock) {
        Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200, 300}};
        clients.twoSynsDropped();
        if (clock) {
            s.engine.advanceClock(at(1500.02));
            Finding shown = onlyFinding(s);
            CHECK(shown.ongoing);
            // 1000 ms each until the retransmission, and 500 ms each since, with no answer yet.
            CHECK(shown.durationMs == Approx(3000).margin(0.1));
            CHECK(shown.evidence["ongoing"]["handshakes_waiting"] == 2);
            CHECK_THAT(shown.summary, Catch::Contains("Still waiting: 2 handshakes"));
            s.engine.advanceClock(at(2500.02));
            CHECK(onlyFinding(s).durationMs == Approx(5000).margin(0.1));
        }
        clients.syn(1, 3000.01);  // dropped again, retransmitted after 2 s more
        clients.syn(2, 3000.02);
        clients.answer(1, 3000.1);
        clients.answer(2, 3000.2);
        if (clock) {
            s.engine.advanceClock(at(3500));
            const Finding answered = onlyFinding(s);
            CHECK_FALSE(answered.ongoing);
            CHECK_FALSE(answered.evidence.contains("ongoing"));
            CHECK(answered.durationMs == Approx(6000).margin(0.1));
        }
        s.finish();
    };
    BacklogSession live;
    conversation(live, true);
    BacklogSession file;
    conversation(file, false);
    CHECK_FALSE(onlyFinding(live).ongoing);
    requireSameFinding(onlyFinding(live), onlyFinding(file));
}

namespace {

// A live capture's retirement, with connections idle 200 s retired (their state released): longer
// than a client keeps retrying a SYN, as the default hour is.
EngineOptions retiringAfter200s() {
    EngineOptions options;
    options.retirement.enabled = true;
    options.retirement.idleAgeNs = 200'000'000'000;
    return options;
}

// Plays `conversation` live, retiring `retired` connections on the way, and from a file; the final
// findings must agree. Returns the live finding as shown before the end.
template <typename Conversation>
Finding shownWhileRetiring(const Conversation& conversation, size_t retired) {
    BacklogSession live({}, retiringAfter200s());
    conversation(live);
    CHECK(live.engine.retiredConnections() == retired);
    const Finding shown = onlyFinding(live);
    live.finish();
    BacklogSession file;
    conversation(file);
    file.finish();
    requireSameFinding(onlyFinding(live), onlyFinding(file));
    return shown;
}

}  // namespace

TEST_CASE("live: a handshake retired while still unanswered is unfinished at once, as at the end of the file",
          "[detect][backlog][retirement]") {
    const auto conversation = [](BacklogSession& s) {
        Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200, 300, 400}};
        clients.twoSynsDropped();
        clients.answer(1, 1000.1);  // client 2 never gets an answer
        clients.syn(3, 300'000);  // client 2 idle for 299 s: retired
        clients.answer(3, 300'000.1);
    };
    const Finding shown = shownWhileRetiring(conversation, 3);
    CHECK(shown.evidence["connections_unfinished"] == 1);
    CHECK(shown.evidence["connections"][1]["outcome"] == "unfinished");
    CHECK_THAT(shown.summary, Catch::Contains("1 never established"));
}

TEST_CASE("live: SYNs retried to a silent endpoint by a connection retired since count when it starts answering",
          "[detect][backlog][retirement]") {
    const auto conversation = [](BacklogSession& s) {
        Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200, 300}};
        clients.syn(0, 0);
        clients.syn(0, 1000);  // retried: no answer from anything yet (a firewall, or a full queue?)
        clients.syn(1, 250'000);  // client 0 idle for 249 s: retired
        clients.syn(2, 250'000.01);
        clients.answer(1, 250'000.1);  // a listener after all: client 0's retry was a dropped SYN
        clients.syn(2, 251'000.01);
        clients.answer(2, 251'000.1);
    };
    const Finding shown = shownWhileRetiring(conversation, 1);
    CHECK(shown.evidence["connections_delayed"] == 2);
    CHECK(shown.evidence["connections"][0]["outcome"] == "unfinished");
}

TEST_CASE("live: an endpoint whose one handshake was retired unanswered is forgotten, and overflows as in the file",
          "[detect][backlog][retirement]") {
    const auto conversation = [](BacklogSession& s) {
        Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200, 300}};
        Clients elsewhere{s, "10.0.0.3", "10.0.0.4", 80, {100}};
        clients.syn(0, 0);  // nothing answers (alone to the endpoint)
        elsewhere.syn(0, 250'000);  // client 0 idle for 250 s: retired after this packet
        clients.syn(1, 250'000.01);
        clients.syn(2, 250'000.02);
        clients.answer(1, 250'000.1);
        clients.syn(2, 251'000.02);
        clients.answer(2, 251'000.1);
    };
    const Finding shown = shownWhileRetiring(conversation, 1);
    CHECK(shown.evidence["connections_delayed"] == 1);
    CHECK(shown.evidence["peak_concurrent_handshakes"] == 2);  // client 0 was abandoned long before
    CHECK(shown.evidence["connections"][0]["client"] == "10.0.0.1:40002");
}

TEST_CASE("live: a listener's queue walks past connections retired and freed behind a handshake in flight",
          "[detect][backlog][retirement]") {
    EngineOptions engineOptions = retiringAfter200s();
    engineOptions.retirement.closedAgeNs = 2'000'000'000;
    BacklogSession s({}, engineOptions);
    constexpr size_t kClients = 2100;  // ids 1024..2047 fill the second chunk of states
    std::vector<uint32_t> isns(kClients + 2);
    for (size_t i = 0; i < isns.size(); ++i) {
        isns[i] = static_cast<uint32_t>(1000 * (i + 1));
    }
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, isns};
    clients.syn(0, 0);  // never answered: the front of the listener's queue
    for (size_t i = 1; i < kClients; ++i) {
        const double atMs = 10 + 0.01 * static_cast<double>(i);
        clients.syn(i, atMs);
        clients.answer(i, atMs + 0.002);
        clients.fromClient(i, clients.isn(i) + 1, 0, kRst, atMs + 0.005);  // closed at once
    }
    // Reset by the client after the handshake, before the server sent anything: a reset by the
    // server could still follow, so every handshake is held until its connection is retired.
    CHECK(s.detector.handshakesHeld() == kClients);
    clients.syn(kClients, 5000);  // the closed ones are retired, their states freed
    const size_t held = s.detector.stateBytes();
    CHECK(s.engine.retiredConnections() == kClients - 1);
    CHECK(s.detector.handshakesHeld() == 2);  // the one never answered, and the new one
    clients.syn(kClients + 1, 140'000);  // the front is abandoned: the queue is walked past the freed ones
    CHECK(s.detector.stateBytes() == held);
    s.finish();
    CHECK(s.findings(FindingKind::SynBacklogOverflow).empty());
}

TEST_CASE("a handshake is let go once nothing can change it - a counted one is kept to the end", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200}};
    clients.syn(0, 0);
    clients.syn(1, 0.01);
    CHECK(s.detector.handshakesHeld() == 2);
    clients.answer(0, 0.1);
    CHECK(s.detector.handshakesHeld() == 2);  // established, but a full queue could still reset it
    clients.fromServer(0, kServerIsn + 1, clients.isn(0) + 1, kAckPsh, 0.2, 100);
    CHECK(s.detector.handshakesHeld() == 1);  // the server sent data: client 0's handshake is over
    clients.syn(1, 1000.01);                  // dropped and retransmitted after 1 s: it counts
    clients.answer(1, 1000.1);
    clients.fromServer(1, kServerIsn + 1, clients.isn(1) + 1, kAckPsh, 1000.2, 100);
    CHECK(s.detector.handshakesHeld() == 1);  // its outcome shows in the finding to the end
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.evidence["connections_delayed"] == 1);
    REQUIRE(finding.evidence["connections"].size() == 1);
    CHECK(finding.evidence["connections"][0]["client"] == "10.0.0.1:40001");
    CHECK(finding.evidence["connections"][0]["outcome"] == "established");
}

TEST_CASE("a SYN scan keeps no listener for endpoints that never answered - they count once they do",
          "[detect][backlog]") {
    BacklogSession s;
    // One probe to each of 300 ports: refused (RST), silent, or answered and reset by the scanner.
    constexpr uint16_t kProbedPorts = 300;
    for (uint16_t index = 0; index < kProbedPorts; ++index) {
        Clients probe{s, "10.0.0.9", "10.0.0.2", static_cast<uint16_t>(1000 + index), {100}};
        const double atMs = 0.01 * index;
        probe.syn(0, atMs);
        if (index % 3 == 0) {
            probe.fromServer(0, 0, probe.isn(0) + 1, kRstAck, atMs + 0.5);
        } else if (index % 3 == 1) {
            probe.synAck(0, atMs + 0.5);
            probe.fromClient(0, probe.isn(0) + 1, 0, kRst, atMs + 0.6);
        }
    }
    CHECK(s.detector.listenersHeld() == kProbedPorts / 3);  // those that answered
    CHECK(s.detector.handshakesHeld() == kProbedPorts / 3);  // the silent ones, still in flight

    // Port 1000 refused the scan's SYN, 1002 never answered it; then both listen, and their queues
    // overflow: client 2's SYN is dropped at both, and at 1002 the scan's retransmitted SYN too.
    Clients refused{s, "10.0.0.1", "10.0.0.2", 1000, {0, 200, 300}};
    Clients silent{s, "10.0.0.1", "10.0.0.2", 1002, {0, 200, 300}};
    Clients scanner{s, "10.0.0.9", "10.0.0.2", 1002, {100}};
    refused.syn(1, 100);
    refused.syn(2, 100.01);
    silent.syn(1, 100.02);
    silent.syn(2, 100.03);
    refused.answer(1, 100.1);
    silent.answer(1, 100.2);
    scanner.syn(0, 1000);
    refused.syn(2, 1100.01);
    silent.syn(2, 1100.03);
    refused.answer(2, 1100.1);
    silent.answer(2, 1100.2);
    scanner.answer(0, 1100.3);
    s.finish();

    const auto findings = s.findings(FindingKind::SynBacklogOverflow);
    REQUIRE(findings.size() == 2);
    const bool refusedFirst = findings[0].evidence["listener"] == "10.0.0.2:1000";
    const Finding& refusedFinding = findings[refusedFirst ? 0 : 1];
    const Finding& silentFinding = findings[refusedFirst ? 1 : 0];
    CHECK(refusedFinding.evidence["listener"] == "10.0.0.2:1000");
    CHECK(refusedFinding.evidence["connections_delayed"] == 1);
    CHECK(refusedFinding.evidence["peak_concurrent_handshakes"] == 2);
    CHECK(refusedFinding.evidence["peak_waiting_handshakes"] == 1);
    CHECK(refusedFinding.severity == Severity::Info);
    // The scan's handshake to 1002 was in flight all along: it adds to the peaks and is delayed too.
    CHECK(silentFinding.evidence["listener"] == "10.0.0.2:1002");
    CHECK(silentFinding.evidence["connections_delayed"] == 2);
    CHECK(silentFinding.evidence["syn_retransmissions"] == 2);
    CHECK(silentFinding.evidence["peak_concurrent_handshakes"] == 3);
    CHECK(silentFinding.evidence["peak_waiting_handshakes"] == 2);
    CHECK(silentFinding.severity == Severity::Error);
    REQUIRE(silentFinding.evidence["connections"].size() == 2);
    CHECK(silentFinding.evidence["connections"][0]["client"] == "10.0.0.9:40000");
    CHECK(silentFinding.evidence["connections"][0]["outcome"] == "established");
    CHECK(silentFinding.evidence["connections"][0]["delay_ms"].get<double>() == Approx(999.98).margin(0.01));
    CHECK(silentFinding.evidence["connections"][1]["client"] == "10.0.0.1:40002");
}

TEST_CASE("a SYN-ACK resent to idle clients that sent no data (TCP_DEFER_ACCEPT) is no overflow", "[detect][backlog]") {
    BacklogSession s;
    Clients clients{s, "10.0.0.1", "10.0.0.2", 80, {100, 200, 300}};
    for (size_t i = 0; i < 3; ++i) {
        const double start = 0.5 * static_cast<double>(i);
        clients.syn(i, start);
        clients.answer(i, start + 20);  // connected, then silent: the listener defers accept until data
    }
    for (size_t i = 0; i < 3; ++i) {
        const double start = 0.5 * static_cast<double>(i);
        clients.synAck(i, start + 7020);  // the deferral's end: the SYN-ACK again, nobody waited for it
        clients.finalAck(i, start + 7040);
    }
    s.finish();
    CHECK(s.findings(FindingKind::SynBacklogOverflow).empty());
}
