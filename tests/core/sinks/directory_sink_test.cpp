// The directory sink: one zstd NDJSON file per host and UTC hour, appended to by later exports.
#include "sinks/directory_sink.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/export_fixtures.hpp"
#include "support/zstd_file.hpp"

namespace {

namespace fs = std::filesystem;
using tcpscope::DirectorySink;
using tcpscope::RecordType;

constexpr int64_t kSecondNs = 1'000'000'000;
// 2026-11-27 18:59:59 UTC
constexpr int64_t kBeforeHourNs = int64_t{1'795'805'999} * kSecondNs;

using tcpscope::test::TempDir;

std::string record(int n) {
    return nlohmann::json{{"record", "flow"}, {"n", n}}.dump();
}

}  // namespace

TEST_CASE("records go to one file per host and UTC hour", "[export][directory]") {
    TempDir dir("dirsink");
    {
        DirectorySink sink(dir.path, "web-1");
        sink.write(RecordType::Flow, kBeforeHourNs, record(1));
        sink.write(RecordType::Flow, kBeforeHourNs + kSecondNs, record(2));  // 19:00:00: the next hour
        sink.write(RecordType::Finding, kBeforeHourNs + 10, record(3));
        sink.finish();
        CHECK(sink.recordsWritten() == 3);
        REQUIRE(sink.files().size() == 2);
    }
    const fs::path first = dir.path / "host=web-1" / "2026-11-27" / "18.ndjson.zst";
    const fs::path second = dir.path / "host=web-1" / "2026-11-27" / "19.ndjson.zst";
    REQUIRE(fs::exists(first));
    REQUIRE(fs::exists(second));
    CHECK(tcpscope::test::lines(tcpscope::test::readZstdFile(first)) == std::vector<std::string>{record(1), record(3)});
    CHECK(tcpscope::test::lines(tcpscope::test::readZstdFile(second)) == std::vector<std::string>{record(2)});

    // A later export into the same hour appends a frame; both read back as one stream.
    {
        DirectorySink sink(dir.path, "web-1");
        sink.write(RecordType::Series, kBeforeHourNs, record(4));
    }  // the destructor ends the frame
    CHECK(tcpscope::test::lines(tcpscope::test::readZstdFile(first)) ==
          std::vector<std::string>{record(1), record(3), record(4)});
}

TEST_CASE("a folder that cannot be written is a one-line error", "[export][directory]") {
    TempDir dir("dirsink");
    fs::create_directories(dir.path);
    {
        std::ofstream blocker(dir.path / "host=h");  // a file where the host's folder should be
    }
    DirectorySink sink(dir.path, "h");
    try {
        sink.write(RecordType::Flow, kBeforeHourNs, record(1));
        FAIL("no error");
    } catch (const std::runtime_error& error) {
        CHECK(std::string(error.what()).find("host=h") != std::string::npos);
        CHECK(std::string(error.what()).find('\n') == std::string::npos);
    }
}

TEST_CASE("a host name that would leave the folder is refused", "[export][directory]") {
    TempDir dir("dirsink");
    CHECK_THROWS_AS(DirectorySink(dir.path, "../elsewhere"), std::invalid_argument);
    CHECK_THROWS_AS(DirectorySink(dir.path, "a/b"), std::invalid_argument);
    CHECK_FALSE(fs::exists(dir.path.parent_path() / "elsewhere"));
}
