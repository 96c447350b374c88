// The files of a live capture: one pcapng, or a ring by size or by capture time that keeps the
// newest files; and the bounded queue that keeps the analysis from holding up capture.
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "analysis/capture_analysis.hpp"
#include "capture/capture_reader.hpp"
#include "live/capture_file_writer.hpp"
#include "live/packet_queue.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope {
namespace {

constexpr int64_t kSecondNs = 1'000'000'000;

std::vector<test::BuiltPacket> packetsOneSecondApart(int count) {
    std::vector<test::BuiltPacket> packets;
    for (int index = 0; index < count; ++index) {
        test::SegmentSpec spec;
        spec.seq = static_cast<uint32_t>(index * 100);
        spec.payloadLength = index == 0 ? 0 : 100;  // a SYN, then data
        spec.flags = index == 0 ? tcpflag::kSyn : tcpflag::kAck;
        packets.push_back(test::buildPacket(spec, 1'700'000'000 * kSecondNs + index * kSecondNs));
    }
    return packets;
}

uint64_t framesIn(const std::string& path) {
    const auto reader = CaptureReader::open(path);
    RawPacket packet;
    uint64_t frames = 0;
    while (reader->next(packet)) {
        ++frames;
    }
    CHECK(reader->error() == nullptr);
    CHECK(reader->warnings().empty());
    return frames;
}

CaptureDescription loopbackDescription() { return {"lo", "tcp port 80", 262144, linktype::kEthernet, true, false}; }

}  // namespace

TEST_CASE("capture files: a ring by size keeps the newest files, each one complete", "[live][ring]") {
    const std::filesystem::path folder = test::uniqueTempPath("live-ring", "");
    std::filesystem::create_directories(folder);
    CaptureFileOptions options;
    options.path = (folder / "trace.pcapng").string();
    options.maxFileBytes = 1000;  // about five 154-byte frames a file
    options.maxFiles = 3;
    CaptureFileWriter writer(options, loopbackDescription());
    const std::vector<test::BuiltPacket> packets = packetsOneSecondApart(40);
    for (const test::BuiltPacket& packet : packets) {
        writer.write(packet.raw());
        writer.flush();
    }
    writer.close(CaptureStats{40, 0, 0}, packets.front().tsNs, packets.back().tsNs);

    REQUIRE(writer.files().size() == 3);
    CHECK(writer.filesDeleted() > 0);
    CHECK(writer.files().back() == (folder / fmt::format("trace_{:05}.pcapng", writer.filesDeleted() + 3)).string());
    uint64_t kept = 0;
    for (const std::string& file : writer.files()) {
        CHECK(std::filesystem::file_size(file) < 1000 + 300);  // rotated at the first packet past the size
        kept += framesIn(file);
    }
    CHECK(kept < 40);
    CHECK(kept >= 10);
    size_t onDisk = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder)) {
        ++onDisk;
    }
    CHECK(onDisk == 3);  // the older files were deleted
    std::filesystem::remove_all(folder);
}

TEST_CASE("capture files: a ring by capture time starts a file every N seconds, and all of them make the capture",
          "[live][ring]") {
    const std::filesystem::path folder = test::uniqueTempPath("live-ring-time", "");
    std::filesystem::create_directories(folder);
    CaptureFileOptions options;
    options.path = (folder / "trace.pcapng").string();
    options.maxFileNs = 10 * kSecondNs;
    CaptureFileWriter writer(options, loopbackDescription());
    const std::vector<test::BuiltPacket> packets = packetsOneSecondApart(35);
    for (const test::BuiltPacket& packet : packets) {
        writer.write(packet.raw());
    }
    writer.close(CaptureStats{35, 0, 0}, packets.front().tsNs, packets.back().tsNs);
    REQUIRE(writer.files().size() == 4);  // 0-9 s, 10-19 s, 20-29 s, 30-34 s
    CHECK(framesIn(writer.files()[0]) == 10);
    CHECK(framesIn(writer.files()[3]) == 5);
    // The files together analyse as the whole capture.
    const std::vector<std::string> files(writer.files().begin(), writer.files().end());
    CHECK(analyzeCaptures(files, AnalysisOptions{}).engine->counters().frames == 35);
    std::filesystem::remove_all(folder);
}

TEST_CASE("capture files: a folder that cannot be written is an error naming the file", "[live][ring]") {
    CaptureFileOptions options;
    options.path = "/nonexistent-tcpscope-folder/trace.pcapng";
    CHECK_THROWS_WITH(CaptureFileWriter(options, loopbackDescription()),
                      Catch::StartsWith("/nonexistent-tcpscope-folder/trace.pcapng: offset 0: cannot create"));
}

TEST_CASE("packet queue: a full queue counts what it leaves out and never waits", "[live][queue]") {
    PacketQueue queue(3, 1 << 20);
    const std::vector<test::BuiltPacket> packets = packetsOneSecondApart(5);
    for (const test::BuiltPacket& packet : packets) {
        queue.push(packet.raw());
    }
    CHECK(queue.dropped() == 2);
    CHECK(queue.highWater() == 3);
    PacketBatch batch;
    REQUIRE(queue.take(batch, std::chrono::milliseconds(0)));
    REQUIRE(batch.size() == 3);
    // Copies, not views of the producer's buffers: the bytes and times are those pushed.
    const RawPacket second = batch.at(1);
    CHECK(second.tsNs == packets[1].tsNs);
    CHECK(std::equal(packets[1].bytes.begin(), packets[1].bytes.end(), second.data));
    queue.push(packets[4].raw());  // room again
    queue.close();
    REQUIRE(queue.take(batch, std::chrono::milliseconds(0)));
    CHECK(batch.size() == 1);
    CHECK_FALSE(queue.take(batch, std::chrono::milliseconds(0)));  // closed and empty
    CHECK(queue.dropped() == 2);
}

}  // namespace tcpscope
