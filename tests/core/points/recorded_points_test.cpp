// The recorded proxy exchange (samples/rtt/rtt-nagle-proxy-*.pcap: client, proxy with -i any,
// server; 3 ms one way between client and proxy, 12 ms between proxy and server), the client's and
// server's captures shifted by editcap as clocks off by -0.73 s and +2.47 s, given to
// `tcpscope-cli analyze` as three capture points.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/cli/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using tcpscope::test::runCommand;

fs::path sample(const std::string& point) {
    return fs::path(TCPSCOPE_SOURCE_DIR) / "samples" / "rtt" / ("rtt-nagle-proxy-" + point + ".pcap");
}

// Copies of the client's and server's captures with their clocks shifted, removed at the end.
struct ShiftedCaptures {
    fs::path folder;
    fs::path client;
    fs::path server;

    ShiftedCaptures() {
        folder = fs::temp_directory_path() / ("tcpscope-points-" + std::to_string(::getpid()));
        fs::create_directories(folder);
        client = folder / "client.pcap";
        server = folder / "server.pcap";
        REQUIRE(runCommand({"editcap", "-t", "-0.73", sample("client").string(), client.string()}).ok());
        REQUIRE(runCommand({"editcap", "-t", "2.47", sample("server").string(), server.string()}).ok());
    }
    ~ShiftedCaptures() { fs::remove_all(folder); }
};

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
