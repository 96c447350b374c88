// The strace alignment on the real recordings of samples/: the proxy traced with strace -f -tt
// -T -yy (and -ttt, and -ff) while the capture ran on the same host.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <regex>

#include "align/flow_time_breakdown.hpp"
#include "align_test_helpers.hpp"
#include "report/finding_evidence.hpp"
#include "report/finding_summary.hpp"

using namespace tcpscope;
using namespace tcpscope::testing;

TEST_CASE("the proxy's sockets are tied to both connections and its clock to the capture's", "[align]") {
    const Aligned result = align("proxy-nagle.pcap", {sample("proxy-nagle.strace")});
    REQUIRE(result.alignment.logs.size() == 1);
    const ClockFit& clock = result.alignment.logs[0].clock;
    CHECK(clock.method == "writes");
    CHECK(clock.tzOffsetMinutes == 0);
    CHECK(std::abs(static_cast<double>(clock.residualNs)) < 1e6);  // within 1 ms on loopback
    CHECK(clock.matchedWrites >= 150);
    // Every connection of the capture is a socket of the proxy: the client side towards the
    // backend, the server side towards the client.
    for (uint32_t id = 0; id < result.capture.engine->connections().size(); ++id) {
        REQUIRE(result.alignment.connectionSockets[id].size() == 1);
        const TracedSocket& socket = result.alignment.sockets[result.alignment.connectionSockets[id][0]];
        CHECK(socket.match == SocketMatch::Decoration);
        CHECK(socket.side == (result.capture.engine->connections()[id].server.port == 3307 ? Side::Server : Side::Client));
    }
}

TEST_CASE("every Nagle stall of the proxy is confirmed by its write calls", "[align]") {
    const Aligned result = align("proxy-nagle.pcap", {sample("proxy-nagle.strace")});
    const int total = stalls(result.capture);
    CHECK(total >= 70);
    CHECK(confirmedStalls(result.capture) == total);
    for (const Finding& finding : result.capture.findings) {
        if (finding.kind != FindingKind::DelayedAckStall) {
            continue;
        }
        const FindingEnrichment& enrichment = result.capture.enrichments.of(finding.id);
        REQUIRE(enrichment.straceVerdicts.size() == finding.spans.size());
        for (const StraceVerdict& verdict : enrichment.straceVerdicts) {
            CHECK_FALSE(verdict.nodelaySet);
            CHECK(verdict.pattern == "sendto, sendto, epoll_wait");
        }
        const StraceVerdict& first = enrichment.straceVerdicts.front();
        CHECK(first.heldWrite.bytes == 35);
        CHECK(first.kernelHoldMs > 30);
        // The report says the same in the evidence and the summary; the finding itself is as its detector made it.
        const nlohmann::json evidence = findingEvidenceJson(finding, enrichment);
        CHECK(evidence["strace"]["nodelay_set"] == false);
        CHECK(evidence["strace"]["pattern"] == "sendto, sendto, epoll_wait");
        CHECK(evidence["instances"][0]["strace"]["held_write"]["bytes"] == 35);
        CHECK_FALSE(finding.evidence.contains("strace"));
        CHECK(findingSummary(finding, enrichment).starts_with(finding.summary));
        CHECK(findingSummary(finding, enrichment).find("The system call trace confirms") != std::string::npos);
        CHECK(finding.summary.find("system call trace") == std::string::npos);
    }
}

TEST_CASE("with TCP_NODELAY the trace shows the option set and the capture no stall", "[align]") {
    const Aligned result = align("proxy-nodelay.pcap", {sample("proxy-nodelay.strace")});
    CHECK(stalls(result.capture) == 0);
    int nodelaySockets = 0;
    for (const TracedSocket& socket : result.alignment.sockets) {
        nodelaySockets += socket.connection != kNoConnection && socket.nodelaySet ? 1 : 0;
    }
    CHECK(nodelaySockets == 2);
    CHECK(result.alignment.logs[0].clock.promptShare > 0.95);
}

TEST_CASE("epoch timestamps (-ttt) and per-process files (-ff) align the same way", "[align]") {
    const Aligned epoch = align("proxy-nagle-ttt.pcapng", {sample("proxy-nagle-ttt.strace")});
    CHECK(epoch.alignment.logs[0].log.format.timeBase == StraceTimeBase::Epoch);
    CHECK(std::abs(static_cast<double>(epoch.alignment.logs[0].clock.offsetNs)) < 1e6);
    CHECK(confirmedStalls(epoch.capture) == stalls(epoch.capture));

    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(TCPSCOPE_SOURCE_DIR) + "/samples")) {
        if (entry.path().filename().string().starts_with("proxy-nagle-ff.strace.")) {
            files.push_back(entry.path().string());
        }
    }
    REQUIRE(files.size() >= 3);
    const Aligned forked = align("proxy-nagle-ff.pcap", files);
    REQUIRE(forked.alignment.logs.size() == 1);  // the NAME.PID files are one log
    CHECK(forked.alignment.logs[0].log.pids().size() == files.size());
    CHECK(stalls(forked.capture) >= 50);
    CHECK(confirmedStalls(forked.capture) == stalls(forked.capture));
}

TEST_CASE("a log written in another time zone is found by best fit, or taken as given", "[align]") {
    const std::string shifted = shiftedLog(sample("proxy-nagle.strace"), 120);
    const Aligned found = align("proxy-nagle.pcap", {shifted});
    CHECK(found.alignment.logs[0].clock.tzOffsetMinutes == 120);
    CHECK(std::abs(static_cast<double>(found.alignment.logs[0].clock.residualNs)) < 1e6);
    CHECK(confirmedStalls(found.capture) == stalls(found.capture));

    StraceClockOptions given;
    given.tzOffsetMinutes = 120;
    const Aligned told = align("proxy-nagle.pcap", {shifted}, given);
    CHECK(told.alignment.logs[0].clock.tzGiven);
    CHECK(told.alignment.logs[0].clock.offsetNs == found.alignment.logs[0].clock.offsetNs);

    const std::string west = shiftedLog(sample("proxy-nagle.strace"), -330);
    CHECK(align("proxy-nagle.pcap", {west}).alignment.logs[0].clock.tzOffsetMinutes == -330);
    std::filesystem::remove(shifted);
    std::filesystem::remove(west);
}

TEST_CASE("a given offset replaces the measured one", "[align]") {
    StraceClockOptions clock;
    clock.offsetMs = 5;
    const Aligned result = align("proxy-nagle.pcap", {sample("proxy-nagle.strace")}, clock);
    CHECK(result.alignment.logs[0].clock.method == "given");
    CHECK(result.alignment.logs[0].clock.residualNs == 5'000'000);
}

TEST_CASE("the churn client's failed connects are added to the port exhaustion finding", "[align]") {
    const Aligned result = align("churn-exhaustion.pcap", {sample("churn-exhaustion.strace")});
    bool found = false;
    for (const Finding& finding : result.capture.findings) {
        if (finding.kind == FindingKind::PortExhaustion) {
            found = true;
            const FindingEnrichment& enrichment = result.capture.enrichments.of(finding.id);
            REQUIRE(enrichment.failedConnects);
            CHECK(enrichment.failedConnects->count > 100);
            CHECK(enrichment.failedConnects->lastTsNs - enrichment.failedConnects->firstTsNs > 30'000'000'000);
            const nlohmann::json evidence = findingEvidenceJson(finding, enrichment);
            CHECK(evidence["strace"]["eaddrnotavail_connects"].get<int>() > 100);
            CHECK(evidence["strace"]["span_ms"].get<double>() > 30'000);
            CHECK(findingSummary(finding, enrichment).find("EADDRNOTAVAIL") != std::string::npos);
            CHECK(finding.summary.find("EADDRNOTAVAIL") == std::string::npos);
        }
    }
    CHECK(found);
    // 742 sockets, 150 connections: the 592 whose connect() failed never made one and stay untied.
    for (const auto& sockets : result.alignment.connectionSockets) {
        CHECK(sockets.size() == 1);
    }
}

TEST_CASE("the proxy's waits on each flow are split into kernel hold and waiting for the peer", "[align][time]") {
    const Aligned nagle = align("proxy-nagle.pcap", {sample("proxy-nagle.strace")});
    for (uint32_t id = 0; id < nagle.capture.engine->connections().size(); ++id) {
        const FlowTimeBreakdown time = flowTimeBreakdown(nagle.alignment, id);
        INFO("flow " << id);
        // 39 of 40 bodies held on each side (samples/README.md), and the proxy waited on each
        // flow one epoll_wait per request: almost all of it while its own body sat in the kernel.
        CHECK(time.heldWrites == 39);
        CHECK(time.callsWithoutDuration == 0);
        CHECK(time.blockingCalls >= 80);
        CHECK(time.blockedWhileHeldNs + time.blockedOnPeerNs == time.blockedNs);
        CHECK(time.blockedWhileHeldNs > time.blockedNs * 95 / 100);
        CHECK(time.kernelHeldNs > 39 * 40'000'000LL);
    }
    const Aligned nodelay = align("proxy-nodelay.pcap", {sample("proxy-nodelay.strace")});
    for (uint32_t id = 0; id < nodelay.capture.engine->connections().size(); ++id) {
        const FlowTimeBreakdown time = flowTimeBreakdown(nodelay.alignment, id);
        CHECK(time.heldWrites == 0);
        CHECK(time.blockedWhileHeldNs == 0);
        CHECK(time.blockedNs < 5'000'000);
    }
}

namespace {

// Capture time of the first call named `name` in the first log of an alignment.
int64_t firstCallTsNs(const StraceAlignment& alignment, std::string_view name) {
    const StraceLog& log = alignment.logs[0].log;
    for (const SyscallRecord& record : log.records) {
        if (log.nameOf(record) == name) {
            return alignment.captureTsNs(0, record);
        }
    }
    return 0;
}

// "PID HH:MM:SS.ffffff rest" -> "PID SSSSSS.ffffff rest" with the time since the previous line,
// as strace -r prints it.
std::string relativeLog(const std::string& path) {
    const std::regex stamp(R"(^(\d+) (\d\d):(\d\d):(\d\d)\.(\d{6}) (.*)$)");
    int64_t previousUs = -1;
    return rewrittenLog(path, "tcpscope-relative.strace", [&](const std::string& line) {
        std::smatch match;
        if (!std::regex_match(line, match, stamp)) {
            return line;
        }
        const int64_t us = ((std::stoll(match[2]) * 60 + std::stoll(match[3])) * 60 + std::stoll(match[4])) * 1'000'000 +
                           std::stoll(match[5]);
        const int64_t delta = previousUs < 0 ? 0 : us - previousUs;
        previousUs = us;
        char text[32];
        std::snprintf(text, sizeof text, "%6lld.%06lld", static_cast<long long>(delta / 1'000'000),
                      static_cast<long long>(delta % 1'000'000));
        return match[1].str() + " " + text + " " + match[6].str();
    });
}

// -ttt times moved by `seconds`, as on a host whose clock is that far ahead.
std::string skewedEpochLog(const std::string& path, double seconds) {
    const std::regex stamp(R"(^(\d+ +)?(\d{10})\.(\d{6}) )");
    return rewrittenLog(path, "tcpscope-skewed.strace", [&](const std::string& line) {
        std::smatch match;
        if (!std::regex_search(line, match, stamp)) {
            return line;
        }
        const int64_t us = std::stoll(match[2]) * 1'000'000 + std::stoll(match[3]) +
                           static_cast<int64_t>(seconds * 1e6);
        char text[32];
        std::snprintf(text, sizeof text, "%lld.%06lld ", static_cast<long long>(us / 1'000'000),
                      static_cast<long long>(us % 1'000'000));
        return match[1].str() + text + match.suffix().str();
    });
}

}  // namespace

TEST_CASE("a relative (-r) log is anchored by its handshakes and writes", "[align][clock]") {
    const Aligned reference = align("proxy-nagle.pcap", {sample("proxy-nagle.strace")});
    const std::string relative = relativeLog(sample("proxy-nagle.strace"));
    const Aligned result = align("proxy-nagle.pcap", {relative});
    REQUIRE(result.alignment.logs[0].log.format.timeBase == StraceTimeBase::Relative);
    CHECK(std::llabs(firstCallTsNs(result.alignment, "sendto") - firstCallTsNs(reference.alignment, "sendto")) <
          1'000'000);
    CHECK(confirmedStalls(result.capture) == stalls(result.capture));
    std::filesystem::remove(relative);
}

TEST_CASE("a log from a host whose clock is seconds off is aligned all the same", "[align][clock]") {
    const Aligned reference = align("proxy-nagle-ttt.pcapng", {sample("proxy-nagle-ttt.strace")});
    const std::string skewed = skewedEpochLog(sample("proxy-nagle-ttt.strace"), 3.5);
    const Aligned result = align("proxy-nagle-ttt.pcapng", {skewed});
    const ClockFit& clock = result.alignment.logs[0].clock;
    CHECK(std::llabs(clock.offsetNs + 3'500'000'000LL) < 1'000'000);  // the skew, back out
    CHECK(std::llabs(firstCallTsNs(result.alignment, "sendto") - firstCallTsNs(reference.alignment, "sendto")) <
          1'000'000);
    CHECK(confirmedStalls(result.capture) == stalls(result.capture));
    std::filesystem::remove(skewed);
}
