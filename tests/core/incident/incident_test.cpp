// Incidents on the recorded samples: the findings of one story linked into one incident, its figures
// against the true figures that samples/README.md gives for each recording (measured with tshark and
// the strace text by samples/verify.py, not by tcpscope), and the fix that fits the capture.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "investigation/investigation.hpp"

using namespace tcpscope;

namespace {

std::string sample(const std::string& name) {
    return (std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / name).string();
}

Investigation investigateSample(const std::string& capture, const std::string& straceLog = {}) {
    InvestigationInputs inputs;
    inputs.captures = {sample(capture)};
    if (!straceLog.empty()) {
        inputs.straceLogs = {sample(straceLog)};
    }
    // As tcpscope-cli analyze runs it: findings described only when written.
    inputs.options.describeWhenWritten = straceLog.empty();
    return investigate(inputs);
}

bool mentions(const std::vector<std::string>& sentences, const std::string& words) {
    return std::any_of(sentences.begin(), sentences.end(),
                       [&](const std::string& sentence) { return sentence.find(words) != std::string::npos; });
}

std::vector<FindingKind> chainKinds(const Incident& incident) {
    std::vector<FindingKind> kinds;
    for (const ChainStep& step : incident.chain) {
        kinds.push_back(step.kind);
    }
    return kinds;
}

// The one incident of `investigation`, which holds every finding of it.
const Incident& onlyIncident(const Investigation& investigation) {
    REQUIRE(investigation.incidents.size() == 1);
    const Incident& incident = investigation.incidents.front();
    REQUIRE(incident.findings.size() == investigation.analysis.findings.size());
    return incident;
}

}  // namespace

TEST_CASE("jobs-port-exhaustion is one incident - churn, the range full, a 24.86 s pause, 3,004 failed connects",
          "[incident][seeds]") {
    const Investigation investigation =
        investigateSample("seeds/jobs-port-exhaustion.pcap.gz", "seeds/jobs-port-exhaustion.strace.gz");
    REQUIRE(investigation.straceProblem.empty());
    const Incident& incident = onlyIncident(investigation);
    CHECK(incident.severity == Severity::Error);
    CHECK(incident.scope == IncidentScope::PortPool);
    CHECK(incident.subject == "127.1.1.2:9000");
    const std::vector<FindingKind> kinds = chainKinds(incident);
    REQUIRE(kinds.size() >= 2);
    CHECK(kinds.front() == FindingKind::TimeWaitChurn);
    CHECK(std::find(kinds.begin(), kinds.end(), FindingKind::PortExhaustion) != kinds.end());

    const IncidentImpact& impact = incident.impact;
    // README: 28,232 connections before the pause, exactly the range; the pause 24.86 s.
    REQUIRE(impact.connectionsBeforeStop);
    CHECK(*impact.connectionsBeforeStop == 28232);
    REQUIRE(impact.pauseMs);
    CHECK(*impact.pauseMs == Approx(24860).margin(10));
    // 28,232 per 60.73 s = 465/s achieved, against 28,232 / 60 s = 470.5/s.
    REQUIRE(impact.rateAchievedPerS);
    CHECK(*impact.rateAchievedPerS == Approx(465).epsilon(0.005));
    REQUIRE(impact.rateSustainablePerS);
    CHECK(*impact.rateSustainablePerS == Approx(470.5).epsilon(0.002));
    REQUIRE(impact.portRange);
    CHECK(impact.portRange->low == 32768);
    CHECK(impact.portRange->high == 60999);
    CHECK(impact.portRange->source == PortRangeSource::Filled);
    // strace: 3,004 connect() calls failed with EADDRNOTAVAIL.
    REQUIRE(impact.connectFailures);
    CHECK(*impact.connectFailures == 3004);
    CHECK(impact.connectErrno == "EADDRNOTAVAIL");

    CHECK(incident.title.find("28,232 connections, then a 24.9 s pause") != std::string::npos);
    CHECK(mentions(incident.fix.doThis, "keep-alive"));
    CHECK(mentions(incident.fix.doThis, "32768-60999 (28,232 ports) sustains 470.5"));
    CHECK(mentions(incident.fix.doesNotHelp, "tcp_fin_timeout"));
    CHECK_FALSE(mentions(incident.fix.doThis, "source port"));
    REQUIRE(incident.events.size() >= 3);
    CHECK(std::is_sorted(incident.events.begin(), incident.events.end(),
                         [](const IncidentEvent& a, const IncidentEvent& b) { return a.tsNs < b.tsNs; }));
}

TEST_CASE("httperf-port-exhaustion stops after 16,384 connections, the whole of the range 49152-65535",
          "[incident][seeds]") {
    const Investigation investigation = investigateSample("seeds/httperf-port-exhaustion.pcap.gz");
    const Incident& incident = onlyIncident(investigation);
    CHECK(incident.severity == Severity::Error);
    const IncidentImpact& impact = incident.impact;
    REQUIRE(impact.portRange);
    CHECK(impact.portRange->low == 49152);
    CHECK(impact.portRange->high == 65535);
    CHECK(impact.portRange->source == PortRangeSource::Filled);
    REQUIRE(impact.connectionsBeforeStop);
    CHECK(*impact.connectionsBeforeStop == 16384);
    CHECK_FALSE(impact.pauseMs);
    // 16,384 / 60 s, and 16,384 requests in 35.33 s = 464/s.
    CHECK(impact.rateSustainablePerS.value_or(0) == Approx(273.07).epsilon(0.001));
    CHECK(impact.rateAchievedPerS.value_or(0) == Approx(464).epsilon(0.005));
    CHECK(mentions(incident.fix.doThis, "49152-65535 (16,384 ports)"));
}

TEST_CASE("backlog-connrate-client is one incident of the listener, its effects joined, the retries as measured",
          "[incident][seeds]") {
    const Investigation investigation = investigateSample("seeds/backlog-connrate-client.pcap.gz");
    const Incident& incident = onlyIncident(investigation);
    CHECK(incident.scope == IncidentScope::Listener);
    CHECK(incident.subject == "127.1.1.2:9200");
    CHECK(incident.severity == Severity::Error);
    REQUIRE_FALSE(incident.chain.empty());
    CHECK(incident.chain.front().kind == FindingKind::SynBacklogOverflow);
    CHECK(incident.chain.front().role == ChainRole::Cause);
    for (size_t step = 1; step < incident.chain.size(); ++step) {
        CHECK(incident.chain[step].role == ChainRole::Effect);
    }
    const IncidentImpact& impact = incident.impact;
    // README: 13,171 SYNs dropped; retries at +1, +2, +3.1, +4.1, +5.1, +7.1, +11.2 s.
    CHECK(impact.synsDropped.value_or(0) == 13171);
    const std::vector<double> measured = {1, 2, 3.1, 4.1, 5.1, 7.1, 11.2};
    REQUIRE(impact.synRetryOffsetsS.size() == measured.size());
    for (size_t retry = 0; retry < measured.size(); ++retry) {
        CHECK(impact.synRetryOffsetsS[retry] == Approx(measured[retry]).margin(0.1));
    }
    // 4,205 handshakes waited a second or more, the longest 11.3 s; 9,984 answered at 558/s.
    CHECK(impact.requestsDelayed.value_or(0) == 4205);
    CHECK(impact.latencyMaxMs.value_or(0) == Approx(11300).margin(60));
    CHECK(impact.connectionsAnswered.value_or(0) == 9984);
    CHECK(impact.rateAchievedPerS.value_or(0) == Approx(558).epsilon(0.01));
    CHECK(mentions(incident.fix.doThis, "listen(fd, N)"));
    CHECK(mentions(incident.fix.doesNotHelp, "somaxconn alone"));
}

TEST_CASE("ab-keepalive has no incident, ab-no-keepalive one that cost nothing", "[incident][seeds]") {
    CHECK(investigateSample("seeds/ab-keepalive.pcap.gz").incidents.empty());
    const Investigation investigation = investigateSample("seeds/ab-no-keepalive.pcap.gz");
    const Incident& incident = onlyIncident(investigation);
    CHECK(incident.severity == Severity::Info);
    CHECK(incident.subject == "127.1.1.2");
    CHECK(mentions(incident.fix.doThis, "keep-alive"));
    CHECK(mentions(incident.fix.doesNotHelp, "the TIME_WAIT entries are the server's"));
}

TEST_CASE("hosts-churn - four client hosts toward one server are one incident", "[incident]") {
    const Investigation investigation = investigateSample("hosts-churn.pcap");
    REQUIRE(investigation.analysis.findings.size() == 4);
    const Incident& incident = onlyIncident(investigation);
    CHECK(incident.subject == "127.0.0.1:9000");
    for (const char* host : {"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.1:9000"}) {
        CHECK(std::find(incident.hosts.begin(), incident.hosts.end(), host) != incident.hosts.end());
    }
}

TEST_CASE("proxy-nagle - the two sides of the proxy are one incident", "[incident]") {
    for (const char* capture : {"proxy-nagle.pcap", "proxy-nagle-ff.pcap"}) {
        const Investigation investigation = investigateSample(capture);
        INFO(capture);
        const Incident& incident = onlyIncident(investigation);
        CHECK(incident.scope == IncidentScope::Process);
        CHECK(incident.subject == "127.0.0.1:3307");
        CHECK(incident.title.find("on each side") != std::string::npos);
        CHECK(incident.impact.latencyAddedMs.value_or(0) == Approx(40).margin(5));
        CHECK(mentions(incident.fix.doThis, "TCP_NODELAY"));
        CHECK(incident.processes.empty());  // nothing names it without the trace
    }
    // With the trace, the process whose writes waited: the proxy (pid 29923 in its strace log).
    const Investigation withTrace = investigateSample("proxy-nagle.pcap", "proxy-nagle.strace");
    const Incident& traced = onlyIncident(withTrace);
    CHECK(traced.processes == std::vector<std::string>{"pid 29923 (traced)"});
}

TEST_CASE("port-reuse-collision - the fix is to stop binding source port 40404", "[incident]") {
    const Investigation investigation = investigateSample("port-reuse-collision.pcap");
    const Incident& incident = onlyIncident(investigation);
    CHECK(mentions(incident.fix.doThis, "Stop binding source port 40404"));
    CHECK_FALSE(mentions(incident.fix.doThis, "ip_local_port_range"));
}

TEST_CASE("churn-exhaustion - a narrow range is said by the ports seen, with what it sustains", "[incident]") {
    const Investigation investigation = investigateSample("churn-exhaustion.pcap");
    const Incident& incident = onlyIncident(investigation);
    CHECK(incident.severity == Severity::Error);
    REQUIRE(incident.impact.portRange);
    CHECK(incident.impact.portRange->low == 40000);
    CHECK(incident.impact.portRange->high == 40099);
    CHECK(incident.impact.portRange->source == PortRangeSource::Observed);
    CHECK(incident.impact.rateSustainablePerS.value_or(0) == Approx(100.0 / 60).epsilon(0.001));
    CHECK(incident.impact.connectionsBeforeStop.value_or(0) == 100);
    CHECK(mentions(incident.fix.doThis, "the ports seen, 40000-40099 (100 ports), sustain"));
}
