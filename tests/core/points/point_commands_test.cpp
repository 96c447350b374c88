// --point on flows, packets and export: the recorded proxy exchange as three capture points, the
// client's and server's clocks shifted (proxy_points.hpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/cli/run_command.hpp"
#include "core/points/proxy_points.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using tcpscope::test::runCommand;
using tcpscope::test::ShiftedCaptures;

fs::path sample(const std::string& point) {
    return tcpscope::test::proxySample(point);
}

Json cliJson(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), TCPSCOPE_CLI);
    const auto result = runCommand(arguments);
    INFO(result.err);
    REQUIRE(result.ok());
    return Json::parse(result.out);
}

std::vector<std::string> withPoints(std::vector<std::string> arguments, const ShiftedCaptures& shifted) {
    arguments.insert(arguments.end(),
                     {"--point", "client=" + shifted.client.string(), "--point", "proxy=" + sample("proxy").string(),
                      "--point", "server=" + shifted.server.string()});
    return arguments;
}

}  // namespace

TEST_CASE("flows --point: each connection once, with the points' clocks", "[points][cli]") {
    const ShiftedCaptures shifted;
    const Json together = cliJson(withPoints({"flows", "--format", "json"}, shifted));
    const Json proxyAlone = cliJson({"flows", sample("proxy").string(), "--format", "json"});
    CHECK(together.at("flows").size() == proxyAlone.at("flows").size());
    REQUIRE(together.at("points").size() == 3);
    CHECK(together.at("points")[2].at("offset_ms").get<double>() == Approx(3200).margin(0.5));
    const auto text = runCommand(withPoints({TCPSCOPE_CLI, "flows"}, shifted));
    REQUIRE(text.ok());
    CHECK(text.out.starts_with("Capture points (3)"));
}

TEST_CASE("packets --point: where and when each packet was seen, on the reference clock", "[points][cli]") {
    const ShiftedCaptures shifted;
    const Json report = cliJson(withPoints({"packets", "--format", "json"}, shifted));
    const Json proxyAlone = cliJson({"packets", sample("proxy").string(), "--format", "json"});
    REQUIRE(report.at("packets").size() == proxyAlone.at("packets").size());
    size_t seenAtProxyAndServer = 0;
    for (const Json& packet : report.at("packets")) {
        const Json& seenAt = packet.at("seen_at");
        CHECK_FALSE(seenAt.empty());
        // The packet's own time is that of one of its sightings: the point it was analysed from.
        bool own = false;
        double proxyTs = 0;
        double serverTs = 0;
        for (const Json& sighting : seenAt) {
            own = own || std::abs(sighting.at("ts").get<double>() - packet.at("ts").get<double>()) < 2e-6;
            if (sighting.at("point") == "proxy") {
                proxyTs = sighting.at("ts").get<double>();
            } else if (sighting.at("point") == "server") {
                serverTs = sighting.at("ts").get<double>();
            }
        }
        CHECK(own);
        if (proxyTs > 0 && serverTs > 0) {
            ++seenAtProxyAndServer;
            // One hop of 12 ms apart, whichever way the packet went (the clocks put on the client's).
            CHECK(std::abs(serverTs - proxyTs) == Approx(0.012).margin(0.002));
        }
    }
    CHECK(seenAtProxyAndServer > 100);
    const auto text = runCommand(withPoints({TCPSCOPE_CLI, "packets", "--flow", "1"}, shifted));
    REQUIRE(text.ok());
    CHECK(text.out.find("seen at: ") != std::string::npos);
    // One point alone: no sightings.
    const Json alone = cliJson({"packets", "--point", "proxy=" + sample("proxy").string(), "--format", "json"});
    CHECK(alone == proxyAlone);
}

TEST_CASE("export --point: the records of each connection once", "[points][cli]") {
    const ShiftedCaptures shifted;
    const fs::path out = shifted.folder / "records";
    const Json exported = cliJson(
        withPoints({"export", "--host", "proxy-1", "--to", "dir:" + out.string(), "--format", "json"}, shifted));
    const Json proxyAlone = cliJson({"flows", sample("proxy").string(), "--format", "json"});
    CHECK(exported.at("records").at("flow") == proxyAlone.at("flows").size());
    CHECK(exported.at("dropped") == 0);
    CHECK(exported.at("capture_id").get<std::string>().size() == 16);
}
