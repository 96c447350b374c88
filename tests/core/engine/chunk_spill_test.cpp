// A large capture's connection records and detector states spill into a file (ChunkSpill) whose
// pages leave the resident set and come back when read. Where the chunks live must change no
// answer: the report of an analysis whose file pages are dropped every few thousand frames is the
// report of one held in memory, byte for byte; and a spill that cannot make its file says why and
// keeps everything in memory.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "detect/finding_log.hpp"
#include "report/json_report.hpp"
#include "support/generated_capture.hpp"
#include "tcp/chunk_memory.hpp"
#include "tcp/chunked_store.hpp"

using namespace tcpscope;

namespace {

// The JSON report of `paths`, and (with `spill`) the most the file held during the load.
std::string reportOf(const std::vector<std::string>& paths, bool spill, size_t* mostInFile = nullptr) {
    std::optional<ChunkSpill> spilling;
    if (spill) {
        spilling.emplace(std::filesystem::temp_directory_path());
    }
    size_t most = 0;
    // At every checkpoint (4096 frames) every page of the file leaves the resident set: the
    // detectors read their older connections back from the page cache.
    const CaptureAnalysis analysis =
        analyzeCaptures(paths, AnalysisOptions{}, nullptr, nullptr, [&](const AnalysisCheckpoint&) {
            if (spill) {
                most = std::max(most, ChunkSpill::bytesInFile());
                ChunkSpill::trimNow();
            }
        });
    if (spill) {
        ChunkSpill::trimNow();
    }
    std::ostringstream report;
    writeAnalysisReportJson(report, analysis);
    if (mostInFile != nullptr) {
        *mostInFile = most;
    }
    return report.str();
}

}  // namespace

TEST_CASE("a spilled analysis reports byte for byte what one held in memory reports", "[engine][spill]") {
    const test::GeneratedCapture w1(test::smallWorkload(bench::Workload::W1, 60'000), "spill-w1");
    const std::string samples = std::string(TCPSCOPE_SOURCE_DIR) + "/samples/";
    for (const std::vector<std::string>& paths :
         {std::vector<std::string>{w1.path()}, std::vector<std::string>{samples + "http-tw-reuse.pcap"},
          std::vector<std::string>{samples + "proxy-nagle.pcap"}}) {
        CAPTURE(paths.front());
        size_t mostInFile = 0;
        const std::string spilled = reportOf(paths, true, &mostInFile);
        const std::string inMemory = reportOf(paths, false);
        REQUIRE(spilled == inMemory);
        if (paths.front() == w1.path()) {
            CHECK(mostInFile > size_t{1} << 20);  // the records of its thousands of connections
        }
    }
    CHECK(ChunkSpill::bytesInFile() == 0);  // every chunk given back, its pages punched out of the file
}

TEST_CASE("a spill that cannot make its file says why and keeps the chunks in memory", "[engine][spill]") {
    ChunkedStore<std::array<uint64_t, 64>> store;  // 512 KiB chunks: large enough for the file
    {
        const ChunkSpill spill("/nonexistent-directory-of-tcpscope");
        CHECK_THAT(ChunkSpill::error(), Catch::Contains("/nonexistent-directory-of-tcpscope"));
        for (uint64_t value = 0; value < 3000; ++value) {
            store.append().fill(value);
        }
        CHECK(ChunkSpill::bytesInFile() == 0);
    }
    CHECK(store[2999][63] == 2999);
    CHECK(store[0][0] == 0);
}

TEST_CASE("chunks made during a spill stay valid after it, and small chunks stay on the heap", "[engine][spill]") {
    ChunkedStore<std::array<uint64_t, 64>> large;
    ChunkedStore<uint32_t, 256> small;  // 1 KiB chunks
    {
        const ChunkSpill spill(std::filesystem::temp_directory_path());
        REQUIRE(ChunkSpill::error().empty());
        for (uint64_t value = 0; value < 5000; ++value) {
            large.append().fill(value);
            small.append(static_cast<uint32_t>(value));
        }
        CHECK(ChunkSpill::bytesInFile() == large.bytesHeld());
        ChunkSpill::trimNow();
    }
    CHECK(large[4321][7] == 4321);
    CHECK(small[4321] == 4321);
    large = {};
    CHECK(ChunkSpill::bytesInFile() == 0);
}

TEST_CASE("a finding log keeps its findings in the spill file and hands them back in order", "[engine][spill]") {
    const ChunkSpill spill(std::filesystem::temp_directory_path());
    REQUIRE(ChunkSpill::error().empty());
    FindingLog log;
    const auto numbered = [](uint32_t made) {
        Finding finding;
        finding.connection = made;
        finding.summary = "finding " + std::to_string(made);
        return finding;
    };
    Finding& first = log.edit(log.add(numbered(0)));
    for (uint32_t made = 1; made < 3000; ++made) {
        log.add(numbered(made));
    }
    CHECK(ChunkSpill::bytesInFile() > log.all().bytesHeld());  // chunks of 256 findings, 96 KiB, and who wrote them
    CHECK(&first == &log.edit(0));                             // growing never moved it
    first.durationMs = 12.5;
    ChunkSpill::trimNow();  // read back from the page cache below

    const size_t findingBytes = log.all().bytesHeld();
    FindingList released = log.release();
    REQUIRE(released.size() == 3000);
    CHECK(&released[0] == &first);  // handed over where they were: in the file, not copied to the heap
    CHECK(ChunkSpill::bytesInFile() >= findingBytes);
    CHECK(released[0].durationMs == 12.5);
    for (uint32_t id = 0; id < released.size(); ++id) {
        CHECK(released[id].id == id);
        CHECK(released[id].summary == "finding " + std::to_string(id));
    }
    released.clear();
    CHECK(ChunkSpill::bytesInFile() == 0);
}
