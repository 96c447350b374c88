// The packet index: values stored as differences read back whole, also where a difference does not
// fit; moving older chunks to disk: every position reads back as it was written, flags still change
// on a moved packet, and a directory that cannot take the file leaves the index in memory with a reason.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "tcp/packet_index.hpp"

using namespace tcpscope;

namespace {

// A packet whose every field depends on its position, with a few timestamps out of order, offsets
// past 4 GiB, frame gaps (non-TCP frames), and both directions.
IndexedPacket packetAt(size_t position) {
    IndexedPacket packet;
    const auto i = static_cast<uint32_t>(position);
    packet.tsNs = 1'700'000'000'000'000'000 + static_cast<int64_t>(position) * 1'000'003 +
                  (position % 5000 == 0 ? int64_t{7'000'000'000} * static_cast<int64_t>(position / 5000) : 0);
    packet.recordOffset = (uint64_t{1} << 33) + uint64_t{position} * 97;
    packet.fileIndex = i / 100'000;
    packet.frame = 1 + i + i / 7;
    packet.connection = i % 1009;
    packet.seq = i * 2654435761u;
    packet.ack = ~i;
    packet.payloadLength = i % 70000;
    packet.tcpFlags = static_cast<uint8_t>(i);
    packet.fromServer = i % 2 == 1;
    packet.window = static_cast<uint16_t>(i * 31);
    packet.analysis = static_cast<AnalysisFlags>(i % (1u << kAnalysisFlagCount));
    return packet;
}

bool samePacket(const IndexedPacket& a, const IndexedPacket& b) {
    return a.tsNs == b.tsNs && a.recordOffset == b.recordOffset && a.fileIndex == b.fileIndex && a.frame == b.frame &&
           a.connection == b.connection && a.seq == b.seq && a.ack == b.ack && a.payloadLength == b.payloadLength &&
           a.tcpFlags == b.tcpFlags && a.fromServer == b.fromServer && a.window == b.window && a.analysis == b.analysis;
}

std::string temporaryDirectory() {
    const char* fromEnvironment = std::getenv("TMPDIR");
    return fromEnvironment != nullptr && *fromEnvironment != '\0' ? fromEnvironment : "/tmp";
}

constexpr size_t kPackets = 5 * PacketIndex::kChunkSize + 1234;

}  // namespace

TEST_CASE("the packet index keeps about 30 bytes per packet of a steady capture", "[tcp][index]") {
    PacketIndex index;
    IndexedPacket packet;
    for (size_t i = 0; i < 3 * PacketIndex::kChunkSize; ++i) {
        packet.tsNs = 1'700'000'000'000'000'000 + static_cast<int64_t>(i) * 1000;
        packet.recordOffset = 24 + uint64_t{i} * 1514;
        packet.frame = static_cast<uint32_t>(i + 1);
        index.append(packet);
    }
    CHECK(index.memoryBytes() == 3 * PacketIndex::chunkBytes() + 3 * 3 * sizeof(std::vector<int>));  // no value kept whole
    CHECK(PacketIndex::chunkBytes() < PacketIndex::kChunkSize * 31);
    CHECK(index.at(3 * PacketIndex::kChunkSize - 1).recordOffset == 24 + (3 * PacketIndex::kChunkSize - 1) * 1514);
}

TEST_CASE("values whose difference from their block does not fit read back whole", "[tcp][index]") {
    // Each row is one packet; a block is 256 packets, so all of these share the first block.
    struct Row {
        int64_t tsNs;
        uint32_t fileIndex;
        uint64_t recordOffset;
        uint32_t frame;
    };
    const std::vector<Row> rows = {
        {5'000'000'000, 0, 24, 10},
        {5'000'000'001, 1, 24, 11},                 // another input file, offset below the base
        {4'999'999'999, 0, 100, 12},                // a timestamp before the block's first
        {5'000'000'000 + 4'294'967'294, 0, 200, 13},  // the largest difference that fits
        {5'000'000'000 + 4'294'967'295, 0, 300, 14},  // the smallest that does not (the marker value)
        {9'000'000'000'000, 0, (uint64_t{1} << 40), 15},  // a long pause; an offset 1 TiB on
        {9'000'000'000'001, 0, 400, 10 + 65'534},   // frame difference 65,534: fits
        {9'000'000'000'002, 0, 500, 10 + 65'535},   // 65,535: the marker, kept whole
        {9'000'000'000'003, 2, 600, 4'000'000'000},
        {-7, 0, 700, 4'000'000'001},                // before 1970
    };
    PacketIndex index;
    for (const Row& row : rows) {
        IndexedPacket packet;
        packet.tsNs = row.tsNs;
        packet.fileIndex = row.fileIndex;
        packet.recordOffset = row.recordOffset;
        packet.frame = row.frame;
        index.append(packet);
    }
    for (size_t i = 0; i < rows.size(); ++i) {
        INFO("row " << i);
        const IndexedPacket back = index.at(i);
        CHECK(back.tsNs == rows[i].tsNs);
        CHECK(back.fileIndex == rows[i].fileIndex);
        CHECK(back.recordOffset == rows[i].recordOffset);
        CHECK(back.frame == rows[i].frame);
        CHECK(index.positionOfFrame(rows[i].frame) == i);
    }
}

TEST_CASE("a spilled packet index reads back every position identically across the spill boundary", "[tcp][index]") {
    PacketIndex index;
    index.spillTo({temporaryDirectory(), 2});
    REQUIRE(index.spillProblem().empty());
    for (size_t i = 0; i < kPackets; ++i) {
        index.append(packetAt(i));
    }
    REQUIRE(index.size() == kPackets);
    // Six chunks: the four oldest moved to disk, the newest two (one of them partly full) in memory.
    CHECK(index.spilledBytes() == 4 * PacketIndex::chunkBytes());
    CHECK(index.memoryBytes() >= 2 * PacketIndex::chunkBytes());
    CHECK(index.memoryBytes() < 2 * PacketIndex::chunkBytes() + 64 * 1024);  // and the few values kept whole
    size_t mismatches = 0;
    for (size_t i = 0; i < kPackets; ++i) {
        const IndexedPacket expected = packetAt(i);
        mismatches += samePacket(index.at(i), expected) && index.tsNs(i) == expected.tsNs &&
                              index.frame(i) == expected.frame && index.connection(i) == expected.connection &&
                              index.analysis(i) == expected.analysis
                          ? 0
                          : 1;
    }
    CHECK(mismatches == 0);
    const size_t boundary = 4 * PacketIndex::kChunkSize;
    for (size_t position : {size_t{0}, boundary - 1, boundary, kPackets - 1}) {
        CHECK(index.positionOfFrame(packetAt(position).frame) == position);
    }
    const size_t afterGap = boundary + 6;  // frames skip one number before every seventh position
    REQUIRE(packetAt(afterGap).frame - packetAt(afterGap - 1).frame == 2);
    CHECK(index.positionOfFrame(packetAt(afterGap).frame - 1) == index.size());  // a frame that is not TCP
    CHECK(index.firstAtOrAfterFrame(packetAt(afterGap).frame - 1) == afterGap);
}

TEST_CASE("changing the analysis flags of a spilled packet writes through to the file", "[tcp][index]") {
    PacketIndex index;
    index.spillTo({temporaryDirectory(), 1});
    for (size_t i = 0; i < kPackets; ++i) {
        index.append(packetAt(i));
    }
    REQUIRE(index.spilledBytes() > 0);
    const AnalysisFlags flags = bit(AnalysisFlag::Retransmission) | bit(AnalysisFlag::ReusedPorts);
    index.setAnalysis(5, flags);
    index.setAnalysis(3 * PacketIndex::kChunkSize + 7, flags);
    CHECK(index.analysis(5) == flags);
    CHECK(index.at(5).fromServer == packetAt(5).fromServer);  // the direction bit beside the flags is kept
    CHECK(index.at(3 * PacketIndex::kChunkSize + 7).analysis == flags);
    CHECK(index.analysis(6) == packetAt(6).analysis);

    // Moved, the index keeps its mappings and file.
    PacketIndex moved = std::move(index);
    CHECK(moved.analysis(5) == flags);
    CHECK(samePacket(moved.at(kPackets - 1), packetAt(kPackets - 1)));
}

TEST_CASE("a spill directory that cannot take the file leaves the index in memory with the reason", "[tcp][index]") {
    // A regular file where the directory should be: refused even for root.
    const std::filesystem::path notADirectory = std::filesystem::path(temporaryDirectory()) / "tcpscope-index-test-file";
    std::ofstream(notADirectory) << "x";
    PacketIndex index;
    index.spillTo({notADirectory.string(), 1});
    std::filesystem::remove(notADirectory);
    CHECK_THAT(index.spillProblem(), Catch::Contains("tcpscope-index-test-file") &&
                                         Catch::Contains("cannot make the packet index file") &&
                                         Catch::Contains("stays in memory"));
    for (size_t i = 0; i < 3 * PacketIndex::kChunkSize; ++i) {
        index.append(packetAt(i));
    }
    CHECK(index.spilledBytes() == 0);
    CHECK(index.memoryBytes() >= 3 * PacketIndex::chunkBytes());
    CHECK(samePacket(index.at(12345), packetAt(12345)));
}

TEST_CASE("without a spill directory the index stays in memory", "[tcp][index]") {
    PacketIndex index;
    index.spillTo({});
    for (size_t i = 0; i < 3 * PacketIndex::kChunkSize; ++i) {
        index.append(packetAt(i));
    }
    CHECK(index.spilledBytes() == 0);
    CHECK(index.spillProblem().empty());
}

TEST_CASE("a snapshot of a growing, spilling index reads its packets on another thread while the index appends",
          "[tcp][index][snapshot]") {
    PacketIndex index;
    index.spillTo({temporaryDirectory(), 1});
    REQUIRE(index.spillProblem().empty());
    const size_t taken = 2 * PacketIndex::kChunkSize + 300;  // mid-chunk, past escaped timestamps
    for (size_t i = 0; i < taken; ++i) {
        index.append(packetAt(i));
    }
    const std::shared_ptr<const PacketIndex> snapshot = index.snapshot();
    REQUIRE(snapshot->size() == taken);

    // The index goes on: it fills the snapshot's last chunk, spills the chunks the snapshot holds
    // in memory, and changes flags, while another thread reads the snapshot.
    std::atomic<size_t> mismatches{0};
    std::thread reader([&] {
        for (size_t i = 0; i < taken; ++i) {
            IndexedPacket read = snapshot->at(i);
            IndexedPacket expected = packetAt(i);
            read.analysis = expected.analysis = 0;  // may have changed (a relaxed atomic read)
            if (!samePacket(read, expected) || snapshot->frame(i) != expected.frame ||
                snapshot->tsNs(i) != expected.tsNs) {
                ++mismatches;
            }
        }
    });
    for (size_t i = taken; i < kPackets; ++i) {
        index.append(packetAt(i));
        if (i % 1000 == 0) {
            index.setAnalysis(i - 1000, bit(AnalysisFlag::Retransmission));
        }
    }
    reader.join();
    CHECK(mismatches == 0);
    CHECK(index.spilledBytes() == kPackets / PacketIndex::kChunkSize * PacketIndex::chunkBytes());  // all but the newest
    CHECK(snapshot->size() == taken);
    CHECK(snapshot->positionOfFrame(packetAt(taken).frame) == taken);  // not in the snapshot
    CHECK(snapshot->firstAtOrAfterFrame(packetAt(taken - 1).frame) == taken - 1);

    // A second snapshot sees everything, the first one still only its own packets.
    const std::shared_ptr<const PacketIndex> later = index.snapshot();
    REQUIRE(later->size() == kPackets);
    for (const size_t i : {size_t{0}, taken - 1, taken, kPackets - 1}) {
        CHECK(samePacket(later->at(i), index.at(i)));
    }
    const size_t changed = (taken / 1000 + 1) * 1000 - 1000;  // the first flags changed after the snapshot
    REQUIRE(changed < taken);
    CHECK(later->analysis(changed) == bit(AnalysisFlag::Retransmission));
    CHECK(index.analysis(changed) == bit(AnalysisFlag::Retransmission));
}

TEST_CASE("a snapshot outlives its index", "[tcp][index][snapshot]") {
    std::shared_ptr<const PacketIndex> snapshot;
    {
        PacketIndex index;
        index.spillTo({temporaryDirectory(), 1});
        for (size_t i = 0; i < kPackets; ++i) {
            index.append(packetAt(i));
        }
        snapshot = index.snapshot();
    }
    REQUIRE(snapshot->size() == kPackets);
    size_t mismatches = 0;
    for (size_t i = 0; i < kPackets; i += 97) {
        mismatches += samePacket(snapshot->at(i), packetAt(i)) ? 0 : 1;
    }
    CHECK(mismatches == 0);
}
