// tcpscope-cli export: the samples into a directory, read back and counted against what `flows` and
// `analyze` say of the same file; and towards a ClickHouse nobody runs: everything spooled, or
// dropped and said so when the spool is too small.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "support/export_fixtures.hpp"
#include "support/zstd_file.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using tcpscope::test::runCommand;

using tcpscope::test::cliJson;
using tcpscope::test::TempDir;

std::string sample(const std::string& name) {
    return tcpscope::test::samplePath(name);
}

// A port on loopback that nothing listens on (bound, then released).
uint16_t closedPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    socklen_t length = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

}  // namespace

TEST_CASE("export to a directory writes every flow and finding the analysis has", "[export][cli]") {
    TempDir out("export-dir");
    for (const char* name : {"churn-exhaustion.pcap", "proxy-nagle.pcap", "backlog-overflow.pcap"}) {
        INFO(name);
        fs::remove_all(out.path);
        const json exported = cliJson(
            {"export", sample(name), "--host", "client-7", "--to", "dir:" + out.path.string(), "--format", "json"});
        std::map<std::string, size_t> counts;
        for (const auto& entry : fs::recursive_directory_iterator(out.path)) {
            if (!entry.is_regular_file()) {
                continue;
            }
            CHECK(entry.path().parent_path().parent_path().filename() == "host=client-7");
            CHECK(entry.path().filename().string().ends_with(".ndjson.zst"));
            for (const std::string& line : tcpscope::test::lines(tcpscope::test::readZstdFile(entry.path()))) {
                const json record = json::parse(line);
                CHECK(record["host"] == "client-7");
                CHECK(record["capture_id"] == exported["capture_id"]);
                ++counts[record["record"].get<std::string>()];
            }
        }
        const json flows = cliJson({"flows", sample(name), "--format", "json"});
        const json analysis = cliJson({"analyze", sample(name), "--format", "json"});
        CHECK(counts["flow"] == flows["flows"].size());
        CHECK(counts["finding"] == analysis["findings"].size());
        CHECK(counts["series"] == exported["records"]["series"].get<size_t>());
        CHECK(exported["sent"].get<size_t>() == counts["flow"] + counts["finding"] + counts["series"]);
        CHECK(exported["spooled"] == 0);
        CHECK(exported["dropped"] == 0);
    }
}

TEST_CASE("export with a bad host or sink says why in one line", "[export][cli]") {
    for (const auto& [host, to, expected] :
         {std::tuple{"a/b", "dir:/tmp/x", "--host 'a/b'"}, std::tuple{"h", "ftp://x", "not a sink"},
          std::tuple{"h", "clickhouse://127.0.0.1:99999/db", "is not a port"},
          std::tuple{"h", "clickhouse://127.0.0.1:8123/", "no database"},
          std::tuple{"h", "clickhouse://127.0.0.1:8123/db?tls=1", "unknown option 'tls=1'"},
          std::tuple{"h", "clickhouse://writer:S3cret@127.0.0.1:99999/db", "clickhouse://writer:***@127.0.0.1:99999/db"},
          std::tuple{"h", "clickhouse://writer:ab@S3cret@127.0.0.1:99999/db", "clickhouse://writer:***@127.0.0.1:99999/db"},
          std::tuple{"h", "clickhouse://writer:%4@127.0.0.1/db", "not followed by two hex digits"}}) {
        const auto result =
            runCommand({TCPSCOPE_CLI, "export", sample("proxy-nagle.pcap"), "--host", host, "--to", to});
        INFO(result.err);
        CHECK(result.exitCode == 2);
        CHECK(result.err.find(expected) != std::string::npos);
        CHECK(result.err.find("S3cret") == std::string::npos);  // a password is never shown
        CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
    }
}

TEST_CASE("export to a ClickHouse nobody answers spools everything, and says what it dropped", "[export][cli][spool]") {
    TempDir spool("export-spool");
    const std::string to = "clickhouse://127.0.0.1:" + std::to_string(closedPort()) + "/fleet";
    const auto spooled = runCommand({TCPSCOPE_CLI, "export", sample("churn-exhaustion.pcap"), "--host", "h1", "--to",
                                     to, "--spool", spool.path.string(), "--retry-s", "0", "--format", "json"});
    INFO(spooled.err);
    CHECK(spooled.exitCode == 4);
    const json report = json::parse(spooled.out);
    const size_t total = report["records"]["flow"].get<size_t>() + report["records"]["finding"].get<size_t>() +
                         report["records"]["series"].get<size_t>();
    CHECK(total > 150);
    CHECK(report["sent"] == 0);
    CHECK(report["spooled"].get<size_t>() == total);
    CHECK(report["dropped"] == 0);
    CHECK(report["failed_attempts"].get<size_t>() >= 1);  // --retry-s 0 still tries once
    CHECK(spooled.err.find("wait in the spool") != std::string::npos);

    // A second run finds them, adds its own until the 0.5 MB limit, and drops the rest, loudly.
    const auto full = runCommand({TCPSCOPE_CLI, "export", sample("http-tw-reuse.pcap"), sample("http-close.pcap"),
                                  "--host", "h1", "--to", to, "--spool", spool.path.string(), "--retry-s", "0",
                                  "--spool-limit-mb", "0.5", "--format", "json"});
    CHECK(full.exitCode == 4);
    const json second = json::parse(full.out);
    CHECK(second["from_earlier_runs"].get<size_t>() == total);
    CHECK(second["dropped"].get<size_t>() > 0);
    CHECK(second["spooled"].get<size_t>() > total);
    CHECK(second["spooled"].get<size_t>() + second["dropped"].get<size_t>() ==
          total + second["records"]["flow"].get<size_t>() + second["records"]["finding"].get<size_t>() +
              second["records"]["series"].get<size_t>());
    CHECK(full.err.find("DROPPED") != std::string::npos);
}
