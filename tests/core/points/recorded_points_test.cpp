// The recorded proxy exchange (samples/rtt/rtt-nagle-proxy-*.pcap: client, proxy with -i any,
// server; 3 ms one way between client and proxy, 12 ms between proxy and server), the client's and
// server's captures shifted by editcap as clocks off by -0.73 s and +2.47 s, given to
// `tcpscope-cli analyze` as three capture points.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/run_command.hpp"
#include "core/points/proxy_points.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using tcpscope::test::runCommand;
using tcpscope::test::ShiftedCaptures;

fs::path sample(const std::string& point) {
    return tcpscope::test::proxySample(point);
}

Json analyzeJson(const std::vector<std::string>& arguments) {
    std::vector<std::string> argv{TCPSCOPE_CLI, "analyze", "--format", "json"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    const auto result = runCommand(argv);
    INFO(result.err);
    REQUIRE(result.ok());
    return Json::parse(result.out);
}

const Json& pointNamed(const Json& report, const std::string& name) {
    for (const Json& point : report.at("points")) {
        if (point.at("name") == name) {
            return point;
        }
    }
    FAIL("no point " << name);
    static const Json none;
    return none;
}

const Json& hopBetween(const Json& report, const std::string& from, const std::string& to) {
    for (const Json& hop : report.at("hops")) {
        if (hop.at("from") == from && hop.at("to") == to) {
            return hop;
        }
    }
    FAIL("no hop " << from << " - " << to);
    static const Json none;
    return none;
}

// Nagle stalls: the findings' count and the held segments they list, and time lost, per sender.
struct Stalls {
    size_t findings = 0;
    int64_t stalls = 0;
    std::vector<std::string> senders;
};

Stalls delayedAckStalls(const Json& report) {
    Stalls stalls;
    for (const Json& finding : report.at("findings")) {
        if (finding.at("kind") == "delayed_ack_stall") {
            ++stalls.findings;
            stalls.stalls += finding.at("evidence").at("stalls").get<int64_t>();
            stalls.senders.push_back(finding.at("evidence").at("sender").get<std::string>());
        }
    }
    std::sort(stalls.senders.begin(), stalls.senders.end());
    return stalls;
}

// The report without the capture points' sections and the capture's files (named differently).
Json withoutPoints(Json report) {
    report.erase("points");
    report.erase("hops");
    return report;
}

}  // namespace

TEST_CASE("three capture points of the proxied exchange: clocks, hops and stalls found once", "[points][cli]") {
    const ShiftedCaptures shifted;
    const Json report =
        analyzeJson({"--point", "client=" + shifted.client.string(), "--point", "proxy=" + sample("proxy").string(),
                     "--point", "server=" + shifted.server.string()});

    // The client is the reference: the proxy's clock is 0.73 s ahead of it, the server's 3.2 s
    // (linked through the proxy: client and server share no segment).
    const Json& client = pointNamed(report, "client");
    CHECK(client.at("reference") == true);
    CHECK(client.at("offset_ms").get<double>() == 0);
    const Json& proxy = pointNamed(report, "proxy");
    CHECK(proxy.at("separable") == true);
    CHECK(proxy.at("offset_ms").get<double>() == Approx(730).margin(0.5));
    const Json& server = pointNamed(report, "server");
    CHECK(server.at("linked") == true);
    CHECK(server.at("separable") == true);
    CHECK(server.at("via") == Json::array({"proxy"}));
    CHECK(server.at("offset_ms").get<double>() == Approx(3200).margin(0.5));
    CHECK(server.at("offset_uncertainty_ms").get<double>() < 0.5);

    const Json& front = hopBetween(report, "client", "proxy");
    CHECK(front.at("from_to").at("median_ms").get<double>() == Approx(3).margin(0.5));
    CHECK(front.at("to_from").at("median_ms").get<double>() == Approx(3).margin(0.5));
    const Json& back = hopBetween(report, "proxy", "server");
    CHECK(back.at("from_to").at("median_ms").get<double>() == Approx(12).margin(0.5));
    CHECK(back.at("to_from").at("median_ms").get<double>() == Approx(12).margin(0.5));
    CHECK(back.at("packets_matched").get<int>() > 100);
    CHECK(report.at("hops").size() == 2);  // client and server saw nothing in common

    // Every connection once, each packet once: the proxy's capture alone has both connections whole.
    const Json proxyAlone = analyzeJson({sample("proxy").string()});
    CHECK(report.at("capture").at("connections") == proxyAlone.at("capture").at("connections"));
    CHECK(report.at("capture").at("tcp_packets") == proxyAlone.at("capture").at("tcp_packets"));
    const Stalls together = delayedAckStalls(report);
    const Stalls alone = delayedAckStalls(proxyAlone);
    CHECK(alone.stalls > 0);
    CHECK(together.findings == alone.findings);
    CHECK(together.stalls == alone.stalls);
    CHECK(together.senders == alone.senders);

    // Given today's way (merged as one capture), the same files count packets two or three times.
    const Json merged = analyzeJson({shifted.client.string(), sample("proxy").string(), shifted.server.string()});
    CHECK(merged.at("capture").at("tcp_packets").get<int>() > proxyAlone.at("capture").at("tcp_packets").get<int>());
}

TEST_CASE("one capture point alone: the same report as the file alone", "[points][cli]") {
    for (const std::string point : {"client", "proxy", "server"}) {
        const Json alone = analyzeJson({sample(point).string()});
        const Json asPoint = analyzeJson({"--point", point + "=" + sample(point).string()});
        CHECK(asPoint.at("points").size() == 1);
        CHECK(asPoint.at("hops").empty());
        CHECK(withoutPoints(asPoint) == alone);
    }
}

TEST_CASE("bad --point arguments: one clear line and usage status", "[points][cli]") {
    const std::string proxy = sample("proxy").string();
    const std::string server = sample("server").string();
    struct Case {
        std::vector<std::string> arguments;
        std::string says;
    };
    const std::vector<Case> cases{
        {{"--point", proxy}, "must be NAME=FILE"},
        {{"--point", "=" + proxy}, "must be NAME=FILE"},
        {{"--point", "proxy="}, "must be NAME=FILE"},
        {{"--point", "proxy=/nonexistent/x.pcap"}, "no such file: /nonexistent/x.pcap"},
        {{"--point", "proxy=" + proxy, proxy}, "either all with --point"},
        {{"--point", "proxy=" + proxy, "--clock", "proxy=1"}, "the first point is the reference clock"},
        {{"--point", "proxy=" + proxy, "--point", "server=" + server, "--clock", "client=1"},
         "--clock client: no capture point of that name"},
        {{"--point", "proxy=" + proxy, "--point", "server=" + server, "--clock", "server=abc"},
         "must be NAME=OFFSET_MS[,DRIFT_PPM]"},
        {{"--point", "proxy=" + proxy, "--point", "server=" + server, "--clock", "server=1,x"},
         "must be NAME=OFFSET_MS[,DRIFT_PPM]"},
        {{proxy, "--clock", "server=1"}, "--clock needs the capture points"},
    };
    for (const Case& c : cases) {
        std::vector<std::string> argv{TCPSCOPE_CLI, "analyze"};
        argv.insert(argv.end(), c.arguments.begin(), c.arguments.end());
        const auto result = runCommand(argv);
        INFO(c.arguments.back());
        CHECK(result.exitCode == 2);
        CHECK(result.err.find(c.says) != std::string::npos);
        CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
    }
}

// The host of a receiver, by the addresses the lab gave them: the client 127.1.1.1, the proxy
// 127.1.1.2 towards it and 127.1.2.1 towards the server, the server 127.1.2.2.
std::string receiverPoint(const std::string& receiver) {
    if (receiver.starts_with("127.1.1.1:")) {
        return "client";
    }
    return receiver.starts_with("127.1.2.2:") ? "server" : "unknown";
}

// The proxy writes twice towards each side: its stalls towards the server wait for the server's
// delayed ACK over the 12 ms hop, those towards the client for the client's over the 3 ms hop.
TEST_CASE("three capture points: every Nagle stall placed on the proxy, the receiver's delayed ACK and the hop",
          "[points][cli]") {
    const ShiftedCaptures shifted;
    const Json report =
        analyzeJson({"--point", "client=" + shifted.client.string(), "--point", "proxy=" + sample("proxy").string(),
                     "--point", "server=" + shifted.server.string()});
    size_t findings = 0;
    std::vector<std::string> receivers;
    int64_t placed = 0;
    for (const Json& finding : report.at("findings")) {
        if (finding.at("kind") != "delayed_ack_stall") {
            continue;
        }
        ++findings;
        INFO("finding at " << finding.at("ts"));
        const Json& placement = finding.at("placement");
        CHECK(placement.at("waited_at") == "proxy");
        const std::string receiver = receiverPoint(finding.at("evidence").at("receiver"));
        receivers.push_back(receiver);
        // The hop is given from the point given first: client - proxy, proxy - server.
        const bool towardsServer = receiver == "server";
        const Json& hop = towardsServer ? hopBetween(report, "proxy", "server") : hopBetween(report, "client", "proxy");
        const double outboundMs = hop.at(towardsServer ? "from_to" : "to_from").at("median_ms").get<double>();
        const double inboundMs = hop.at(towardsServer ? "to_from" : "from_to").at("median_ms").get<double>();
        const Json& instances = finding.at("evidence").at("instances");
        const Json& spans = placement.at("spans");
        REQUIRE(spans.size() == instances.size());
        CHECK(static_cast<int64_t>(spans.size()) == finding.at("evidence").at("stalls").get<int64_t>());
        for (size_t i = 0; i < spans.size(); ++i) {
            double sumMs = 0;
            std::optional<double> serverAckMs;
            std::optional<double> outMs;
            std::optional<double> backMs;
            for (const Json& part : spans[i].at("parts")) {
                sumMs += part.at("ms").get<double>();
                const std::string what = part.at("what");
                if (what == "delayed_ack" && part.at("at") == receiver) {
                    serverAckMs = part.at("ms").get<double>();
                } else if (what == "in_flight" && part.value("from", "") == "proxy" &&
                           part.value("to", "") == receiver) {
                    outMs = part.at("ms").get<double>();
                } else if (what == "in_flight" && part.value("from", "") == receiver &&
                           part.value("to", "") == "proxy") {
                    backMs = part.at("ms").get<double>();
                }
            }
            INFO("stall " << i << ": " << spans[i].dump());
            CHECK(sumMs == Approx(instances[i].at("hold_ms").get<double>()).margin(0.5));
            REQUIRE(serverAckMs.has_value());
            REQUIRE(outMs.has_value());
            REQUIRE(backMs.has_value());
            // Each way on the hop, a stall's segment took about the hop's one-way delay (queueing adds a little).
            CHECK(*outMs == Approx(outboundMs).margin(1.0));
            CHECK(*backMs == Approx(inboundMs).margin(1.0));
            // Linux's delayed-ACK timer: at least its 40 ms floor, less than 200 ms.
            CHECK(*serverAckMs > 35);
            CHECK(*serverAckMs < 200);
            ++placed;
        }
        // The parts added up lead with the server's delayed ACK: most of each stall's time.
        REQUIRE_FALSE(placement.at("parts").empty());
        CHECK(placement.at("parts")[0].at("what") == "delayed_ack");
        CHECK(placement.at("parts")[0].at("at") == receiver);
    }
    CHECK(findings == 2);
    std::sort(receivers.begin(), receivers.end());
    CHECK(receivers == std::vector<std::string>{"client", "server"});
    CHECK(placed == delayedAckStalls(report).stalls);

    // The text report gives one line per placed finding.
    std::vector<std::string> argv{TCPSCOPE_CLI, "analyze",
                                  "--point",    "client=" + shifted.client.string(),
                                  "--point",    "proxy=" + sample("proxy").string(),
                                  "--point",    "server=" + shifted.server.string()};
    const auto text = runCommand(argv);
    REQUIRE(text.ok());
    CHECK(text.out.find("Where the stalls' time went") != std::string::npos);
    CHECK(text.out.find("waited at proxy: ") != std::string::npos);
    CHECK(text.out.find("held by server's delayed ACK") != std::string::npos);
    CHECK(text.out.find("held by client's delayed ACK") != std::string::npos);
}

TEST_CASE("no point on the server: its stalls placed on the proxy, the rest out of sight", "[points][cli]") {
    const ShiftedCaptures shifted;
    const Json report =
        analyzeJson({"--point", "client=" + shifted.client.string(), "--point", "proxy=" + sample("proxy").string()});
    size_t towardsServer = 0;
    for (const Json& finding : report.at("findings")) {
        if (finding.at("kind") != "delayed_ack_stall" ||
            receiverPoint(finding.at("evidence").at("receiver")) != "server") {
            continue;
        }
        ++towardsServer;
        // Only the proxy saw the proxy's back address: its handshake there puts the proxy next to it.
        const Json& placement = finding.at("placement");
        CHECK(placement.at("waited_at") == "proxy");
        const Json& instances = finding.at("evidence").at("instances");
        REQUIRE(placement.at("spans").size() == instances.size());
        for (size_t i = 0; i < instances.size(); ++i) {
            const Json& parts = placement.at("spans")[i].at("parts");
            REQUIRE(parts.size() == 2);
            CHECK(parts[0].at("what") == "out_of_sight");
            CHECK(parts[0].at("at") == "proxy");
            // The way to the server and back and its delayed ACK: the ACK's delay as the proxy saw it.
            CHECK(parts[0].at("ms").get<double>() ==
                  Approx(instances[i].at("ack_delay_ms").get<double>()).margin(0.01));
            CHECK(parts[1].at("what") == "released_after_ack");
            CHECK(parts[1].at("at") == "proxy");
        }
    }
    CHECK(towardsServer == 1);
}

TEST_CASE(
    "one capture point: nothing placed, the text as the file alone gives it, the points block after its incidents",
    "[points][cli]") {
    const std::string proxy = sample("proxy").string();
    const Json asPoint = analyzeJson({"--point", "proxy=" + proxy});
    for (const Json& finding : asPoint.at("findings")) {
        CHECK_FALSE(finding.contains("placement"));
    }
    const auto alone = runCommand({TCPSCOPE_CLI, "analyze", proxy});
    const auto point = runCommand({TCPSCOPE_CLI, "analyze", "--point", "proxy=" + proxy});
    REQUIRE(alone.ok());
    REQUIRE(point.ok());
    CHECK(point.out.find("Where the stalls' time went") == std::string::npos);
    // The incidents, then the "Capture points" block, then exactly the rest of the report of the file alone.
    const size_t incidentsEnd = alone.out.find("\n\n");
    REQUIRE(incidentsEnd != std::string::npos);
    const std::string incidents = alone.out.substr(0, incidentsEnd + 2);
    REQUIRE(point.out.starts_with(incidents));
    const size_t blockEnd = point.out.find("\n\n", incidents.size());
    REQUIRE(blockEnd != std::string::npos);
    CHECK(point.out.substr(incidents.size(), 16) == "Capture points (");
    CHECK(point.out.substr(blockEnd + 2) == alone.out.substr(incidents.size()));
}

TEST_CASE("a clock given with --clock: used, and shown beside the fitted one", "[points][cli]") {
    const ShiftedCaptures shifted;
    const std::vector<std::string> points{"--point", "client=" + shifted.client.string(),
                                          "--point", "proxy=" + sample("proxy").string(),
                                          "--point", "server=" + shifted.server.string()};
    // 10 ms short of the server's real shift (3200 ms): the server's clock is taken as given, so
    // the proxy -> server segments seem 10 ms slower and the way back 10 ms quicker.
    std::vector<std::string> arguments = points;
    arguments.insert(arguments.end(), {"--clock", "server=3190"});
    const Json report = analyzeJson(arguments);
    const Json& server = pointNamed(report, "server");
    CHECK(server.at("overridden") == true);
    CHECK(server.at("offset_ms").get<double>() == 3190);
    CHECK(server.at("drift_ppm").get<double>() == 0);
    CHECK(server.at("offset_uncertainty_ms").is_null());
    REQUIRE(server.at("fitted").is_object());
    CHECK(server.at("fitted").at("offset_ms").get<double>() == Approx(3200).margin(0.5));
    const Json& proxy = pointNamed(report, "proxy");
    CHECK(proxy.at("overridden") == false);
    CHECK(proxy.at("fitted").is_null());
    CHECK(proxy.at("offset_ms").get<double>() == Approx(730).margin(0.5));
    const Json& back = hopBetween(report, "proxy", "server");
    CHECK(back.at("from_to").at("median_ms").get<double>() == Approx(22).margin(0.5));
    CHECK(back.at("to_from").at("median_ms").get<double>() == Approx(2).margin(0.5));
    const Json& front = hopBetween(report, "client", "proxy");
    CHECK(front.at("from_to").at("median_ms").get<double>() == Approx(3).margin(0.5));

    // Given the proxy's clock instead, the server (fitted through the proxy) moves with it.
    arguments = points;
    arguments.insert(arguments.end(), {"--clock", "proxy=735,1.5"});
    const Json moved = analyzeJson(arguments);
    CHECK(pointNamed(moved, "proxy").at("offset_ms").get<double>() == 735);
    CHECK(pointNamed(moved, "proxy").at("drift_ppm").get<double>() == 1.5);
    CHECK(pointNamed(moved, "server").at("overridden") == false);
    CHECK(pointNamed(moved, "server").at("offset_ms").get<double>() == Approx(3205).margin(0.5));
    CHECK(hopBetween(moved, "proxy", "server").at("from_to").at("median_ms").get<double>() == Approx(12).margin(0.5));

    // The text shows both.
    arguments = points;
    arguments.insert(arguments.end(), {"--clock", "server=3190"});
    arguments.insert(arguments.begin(), {TCPSCOPE_CLI, "analyze"});
    const auto text = runCommand(arguments);
    REQUIRE(text.ok());
    CHECK(text.out.find("clock +3190.000 ms, drift +0.0 ppm, given by --clock (fitted: clock +3200.") !=
          std::string::npos);
}
