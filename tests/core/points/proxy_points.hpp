#pragma once
// The recorded proxy exchange (samples/rtt/rtt-nagle-proxy-*.pcap: client, proxy with -i any,
// server; 3 ms one way between client and proxy, 12 ms between proxy and server) as capture points,
// the client's and server's captures shifted by editcap as clocks off by -0.73 s and +2.47 s from
// the proxy's: the proxy 730 ms ahead of the client, the server 3200 ms.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "app/cli/run_command.hpp"

namespace tcpscope::test {

/// The recorded capture of `point`: "client", "proxy" or "server".
inline std::filesystem::path proxySample(const std::string& point) {
    return std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / "rtt" / ("rtt-nagle-proxy-" + point + ".pcap");
}

/// Copies of the client's and server's captures with their clocks shifted, removed at the end.
struct ShiftedCaptures {
    std::filesystem::path folder;
    std::filesystem::path client;
    std::filesystem::path server;

    ShiftedCaptures() {
        folder = std::filesystem::temp_directory_path() / ("tcpscope-points-" + std::to_string(::getpid()));
        std::filesystem::create_directories(folder);
        client = folder / "client.pcap";
        server = folder / "server.pcap";
        REQUIRE(runCommand({"editcap", "-t", "-0.73", proxySample("client").string(), client.string()}).ok());
        REQUIRE(runCommand({"editcap", "-t", "2.47", proxySample("server").string(), server.string()}).ok());
    }
    ~ShiftedCaptures() { std::filesystem::remove_all(folder); }
    ShiftedCaptures(const ShiftedCaptures&) = delete;
    ShiftedCaptures& operator=(const ShiftedCaptures&) = delete;
};

}  // namespace tcpscope::test
