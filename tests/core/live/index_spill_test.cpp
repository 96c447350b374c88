// Where a live capture keeps its packet index: moved to an unlinked file beside the capture file
// by default, and left in memory, with the reason in the summary and the JSON, when the directory
// given cannot take the file. Needs CAP_NET_RAW and CAP_NET_ADMIN (CI runs as root); skipped otherwise.
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "core/live/live_test_support.hpp"
#include "live/live_report.hpp"
#include "live/live_session.hpp"
#include "live/pcap_capture.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope {
namespace {

LiveSession::Result captureNothing(LiveSessionOptions options) {
    // A port nothing uses: the session runs with no packet, which is all the spill setup needs.
    const LiveCaptureOptions capture{"lo", "tcp port " + std::to_string(test::livePort(5)), 262144, 4u << 20, false};
    LiveSession session(std::make_unique<PcapCapture>(capture), std::move(options));
    session.start();
    session.stop();
    REQUIRE(session.waitUntilEnded(std::chrono::seconds(5)));
    return session.finish();
}

}  // namespace

TEST_CASE("live capture: a spill directory that cannot take the packet index leaves it in memory and says why",
          "[live][index]") {
    if (!test::mayCapture()) {
        return;
    }
    const std::filesystem::path notADirectory = test::uniqueTempPath("index-spill-file", ".txt");
    std::ofstream(notADirectory) << "a file, not a directory";
    LiveSessionOptions options;
    options.analysis.engine.indexSpill.directory = notADirectory.string();
    const LiveSession::Result result = captureNothing(std::move(options));
    std::filesystem::remove(notADirectory);

    CHECK(result.summary.error.empty());  // the capture itself is fine
    CHECK_THAT(result.summary.indexProblem, Catch::Contains(notADirectory.string()) &&
                                                Catch::Contains("cannot make the packet index file") &&
                                                Catch::Contains("stays in memory"));
    const nlohmann::ordered_json live = liveCaptureJson(result.summary);
    CHECK(live["packet_index_problem"] == result.summary.indexProblem);
    CHECK(live["packet_index_bytes_on_disk"] == 0);
}

TEST_CASE("live capture: the packet index spills beside the capture file without a problem", "[live][index]") {
    if (!test::mayCapture()) {
        return;
    }
    const std::filesystem::path path = test::uniqueTempPath("index-spill", ".pcapng");
    LiveSessionOptions options;
    options.file = CaptureFileOptions{path.string()};
    const LiveSession::Result result = captureNothing(std::move(options));
    CHECK(result.summary.indexProblem.empty());
    CHECK(liveCaptureJson(result.summary)["packet_index_problem"].is_null());
    // Nothing but the capture file is left beside it: the index file has no name.
    size_t entries = 0;
    for (const auto& entry : std::filesystem::directory_iterator(path.parent_path())) {
        entries += entry.path().filename().string().rfind("tcpscope-index", 0) == 0 ? 1 : 0;
    }
    CHECK(entries == 0);
    std::filesystem::remove(path);
}

}  // namespace tcpscope
