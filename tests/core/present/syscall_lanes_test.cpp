// Which call goes in which of the timeline's syscall lanes is decided in present/syscall_lanes: a
// lane's event and a call's lane answer each other, for the recorded proxy and its strace log.
#include <catch2/catch.hpp>

#include <algorithm>

#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"
#include "present/syscall_lanes.hpp"

using namespace tcpscope;

TEST_CASE("a syscall lane's events and a call's lane answer each other - only tied sockets have lanes",
          "[present][lanes]") {
    const CaptureAnalysis capture = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap"}, {});
    const StraceAlignment alignment =
        loadStraceLogs({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.strace"}, capture, StraceClockOptions{});
    const std::vector<uint32_t> sockets = syscallLaneSockets(alignment);
    REQUIRE_FALSE(sockets.empty());
    for (size_t lane = 0; lane < sockets.size(); ++lane) {
        const TracedSocket& socket = alignment.sockets[sockets[lane]];
        CHECK(socket.connection != kNoConnection);
        const std::vector<uint32_t> records = syscallLaneRecords(socket);
        for (size_t event = 0; event < records.size(); ++event) {
            const std::optional<SyscallLocation> location = syscallOfLaneEvent(alignment, lane, event);
            REQUIRE(location);
            CHECK(location->log == socket.log);
            CHECK(location->record == records[event]);
            // A wait that reported several sockets ready is in each of their lanes: the first one answers.
            const std::optional<size_t> found = syscallLaneOf(alignment, *location);
            REQUIRE(found);
            CHECK(*found <= lane);
            CHECK(syscallLaneSocketOf(alignment, *location) == sockets[*found]);  // the socket of that lane
            CHECK((*found == lane ||
                   socket.records.end() == std::find(socket.records.begin(), socket.records.end(), location->record)));
        }
        CHECK_FALSE(syscallOfLaneEvent(alignment, lane, records.size()));
    }
    CHECK_FALSE(syscallOfLaneEvent(alignment, sockets.size(), 0));
}
