// Records into a real ClickHouse (Debian's 18.16, started by the test on loopback): every flow and
// finding of the samples exported from several hosts arrives exactly once; a server that stops or
// freezes in the middle costs nothing and doubles nothing.
#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/capture_analysis.hpp"
#include "clickhouse/clickhouse_server.hpp"
#include "app/cli/run_command.hpp"
#include "sinks/clickhouse_sink.hpp"
#include "sinks/sink_spec.hpp"
#include "records/analysis_records.hpp"
#include "support/export_fixtures.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tcpscope;
using tcpscope::test::ClickHouseServer;

using tcpscope::test::cliJson;
using tcpscope::test::TempDir;
using tcpscope::test::runCommand;

std::string sample(const std::string& name) {
    return tcpscope::test::samplePath(name);
}

// A sink's options for the tests: its own spool, small batches, short waits, no retrying at the end.
ClickHouseSinkOptions testOptions(const fs::path& spool, uint64_t batchRows, double timeoutSeconds) {
    ClickHouseSinkOptions options;
    options.spoolDir = spool;
    options.batchRows = batchRows;
    options.timeoutSeconds = timeoutSeconds;
    options.retrySeconds = 0;
    return options;
}

ClickHouseTarget targetOf(const ClickHouseServer& server, const std::string& database) {
    return std::get<ClickHouseTarget>(parseSinkTarget(server.url(database)));
}

uint64_t rows(const ClickHouseServer& server, const std::string& table, const std::string& where = "1") {
    return server.number(fmt::format("SELECT count() FROM {} WHERE {}", table, where));
}

// The records of one sample, as a sink receives them.
RecordCounts exportSample(const std::string& name, const std::string& host, RecordSink& sink) {
    const CaptureAnalysis analysis = analyzeCaptures({sample(name)}, AnalysisOptions{});
    return writeAnalysisRecords(RecordSource{host, host + "-" + name, "test", TimeOrigin{}}, analysis, sink);
}

}  // namespace

TEST_CASE("samples exported from several hosts arrive once each, with the counts analyze gives", "[clickhouse]") {
    ClickHouseServer& server = ClickHouseServer::shared();
    TempDir spool("ch-spool-hosts");
    const std::string to = server.url("fleet_hosts");
    uint64_t expectedFlows = 0;
    uint64_t expectedFindings = 0;
    for (const char* host : {"job-1", "job-2", "job-3"}) {
        for (const char* name : {"churn-exhaustion.pcap", "proxy-nagle.pcap"}) {
            INFO(host << " " << name);
            const json exported = cliJson({"export", sample(name), "--host", host, "--to", to, "--spool",
                                           spool.path.string(), "--batch-rows", "40", "--format", "json"});
            const json analysis = cliJson({"analyze", sample(name), "--format", "json"});
            CHECK(exported["records"]["flow"].get<size_t>() == analysis["flows"].size());
            CHECK(exported["records"]["finding"].get<size_t>() == analysis["findings"].size());
            CHECK(exported["sent"].get<uint64_t>() == exported["records"]["flow"].get<uint64_t>() +
                                                          exported["records"]["finding"].get<uint64_t>() +
                                                          exported["records"]["series"].get<uint64_t>());
            CHECK(exported["spooled"] == 0);
            CHECK(exported["dropped"] == 0);
            const std::string capture =
                fmt::format("host = '{}' AND capture_id = '{}'", host, exported["capture_id"].get<std::string>());
            CHECK(rows(server, "fleet_hosts.flows", capture) == analysis["flows"].size());
            CHECK(rows(server, "fleet_hosts.findings", capture) == analysis["findings"].size());
            CHECK(rows(server, "fleet_hosts.series", capture) == exported["records"]["series"].get<uint64_t>());
            // The impact arrives with each finding: the requests its waits delayed, as analyze counts them.
            uint64_t delayed = 0;
            for (const json& finding : analysis["findings"]) {
                delayed += finding["impact"]["delayed_requests"].get<uint64_t>();
            }
            CHECK(delayed > 0);
            CHECK(server.number(fmt::format("SELECT sum(delayed_requests) FROM fleet_hosts.findings WHERE {}", capture)) ==
                  delayed);
            expectedFlows += analysis["flows"].size();
            expectedFindings += analysis["findings"].size();
        }
    }
    CHECK(rows(server, "fleet_hosts.flows") == expectedFlows);
    CHECK(rows(server, "fleet_hosts.findings") == expectedFindings);
    // Every flow once: no (host, capture, flow id) twice.
    CHECK(server.number("SELECT count() FROM (SELECT host, capture_id, flow_id FROM fleet_hosts.flows "
                        "GROUP BY host, capture_id, flow_id HAVING count() > 1)") == 0);
    CHECK(server.number("SELECT uniqExact(host) FROM fleet_hosts.findings WHERE kind = 'port_exhaustion'") == 3);
}

TEST_CASE("a server stopped in the middle: records spool, and drain once it is back, none twice", "[clickhouse]") {
    ClickHouseServer& server = ClickHouseServer::shared();
    TempDir spool("ch-spool-stop");
    const ClickHouseSinkOptions options = testOptions(spool.path, 100, 2);
    uint64_t before = 0;
    uint64_t during = 0;
    {
        ClickHouseSink sink(targetOf(server, "fleet_stop"), options);
        before = exportSample("churn-exhaustion.pcap", "web-1", sink).total();
        server.stop();
        during = exportSample("http-close.pcap", "web-1", sink).total();
        const SinkReport report = sink.finish();
        INFO("sent " << report.recordsSent << ", spooled " << report.recordsSpooled);
        // All batches sealed before the stop were sent; the rest wait.
        CHECK(report.recordsSent + report.recordsSpooled == before + during);
        CHECK(report.recordsSpooled >= during);
        CHECK(report.recordsDropped == 0);
        CHECK(report.batchesRetried > 0);
    }
    server.start();
    // The next export to the same sink, without files, sends what waits.
    const json drained =
        cliJson({"export", "--to", server.url("fleet_stop"), "--spool", spool.path.string(), "--format", "json"});
    CHECK(drained["spooled"] == 0);
    CHECK(drained["from_earlier_runs"].get<uint64_t>() == drained["sent"].get<uint64_t>());
    const uint64_t total =
        rows(server, "fleet_stop.flows") + rows(server, "fleet_stop.findings") + rows(server, "fleet_stop.series");
    CHECK(total == before + during);
}

TEST_CASE("a batch sent to a frozen server is looked up before it is sent again, and lands once", "[clickhouse]") {
    ClickHouseServer& server = ClickHouseServer::shared();
    TempDir spool("ch-spool-frozen");
    ClickHouseSinkOptions options = testOptions(spool.path, 20, 1);
    uint64_t exported = 0;
    {
        ClickHouseSink sink(targetOf(server, "fleet_frozen"), options);
        exported = exportSample("churn-exhaustion.pcap", "db-1", sink).total();  // some batches sent
        server.pause();  // takes connections and requests, answers nothing
        exported += exportSample("proxy-nagle.pcap", "db-1", sink).total();
        const SinkReport report = sink.finish();
        CHECK(report.recordsSpooled > 0);
        CHECK(report.recordsSent + report.recordsSpooled == exported);
    }
    // The spool remembers that a batch went out without an answer: it may land later.
    bool tried = false;
    for (const auto& entry : fs::directory_iterator(spool.path)) {
        tried = tried || entry.path().string().ends_with(".tried");
    }
    CHECK(tried);
    server.resume();
    options.retrySeconds = 30;
    ClickHouseSink sink(targetOf(server, "fleet_frozen"), options);
    const SinkReport report = sink.finish();
    INFO("found landed " << report.batchesFoundLanded << ", sent " << report.batchesSent);
    // The frozen server had taken the timed-out insert and ran it once thawed: the sink found it.
    CHECK(report.batchesFoundLanded >= 1);
    CHECK(report.recordsSpooled == 0);
    CHECK(rows(server, "fleet_frozen.flows") + rows(server, "fleet_frozen.findings") +
              rows(server, "fleet_frozen.series") ==
          exported);
    CHECK(server.number("SELECT count() FROM (SELECT capture_id, flow_id FROM fleet_frozen.flows "
                        "GROUP BY capture_id, flow_id HAVING count() > 1)") == 0);
}

TEST_CASE("a user with a password, over https: records arrive - a wrong password or an unknown CA said, never the password",
          "[clickhouse]") {
    ClickHouseServer& server = ClickHouseServer::shared();
    // The password percent-encoded in the URL ('@' and ':' in it), the server's certificate as the CA.
    const std::string where = fmt::format("127.0.0.1:{}/fleet_tls", server.httpsPort());
    const std::string options = "?secure=true&ca=" + server.certificateFile();
    const auto exportTo = [](const std::string& to, const std::string& host, const TempDir& spool) {
        return runCommand({TCPSCOPE_CLI, "export", sample("proxy-nagle.pcap"), "--host", host, "--to", to, "--spool",
                           spool.path.string(), "--retry-s", "0", "--timeout-s", "5", "--format", "json"});
    };
    const TempDir spool("ch-spool-tls");
    const auto sent = exportTo(fmt::format("clickhouse://writer:w%40ter%3Aproof@{}{}", where, options), "tls-1", spool);
    INFO(sent.err);
    REQUIRE(sent.exitCode == 0);
    const json report = json::parse(sent.out);
    CHECK(report["spooled"] == 0);
    CHECK(report["to"] == "clickhouse://writer@" + where + options);
    CHECK(rows(server, "fleet_tls.flows", "host = 'tls-1'") == report["records"]["flow"].get<uint64_t>());
    CHECK(report["records"]["flow"].get<uint64_t>() > 0);
    CHECK(sent.out.find("proof") == std::string::npos);
    CHECK(sent.err.find("proof") == std::string::npos);

    // The password from $CLICKHOUSE_PASSWORD when the URL names the user only (kept out of `ps`).
    ::setenv("CLICKHOUSE_PASSWORD", ClickHouseServer::kWriterPassword, 1);
    const auto fromEnvironment = exportTo(fmt::format("clickhouse://writer@{}{}", where, options), "tls-2", spool);
    ::unsetenv("CLICKHOUSE_PASSWORD");
    CHECK(fromEnvironment.exitCode == 0);
    CHECK(rows(server, "fleet_tls.flows", "host = 'tls-2'") == report["records"]["flow"].get<uint64_t>());

    // A wrong password: the server's reason, once, and the records wait in the spool.
    const TempDir wrongSpool("ch-spool-wrong");
    const auto wrong = exportTo(fmt::format("clickhouse://writer:Guess3d@{}{}", where, options), "tls-3", wrongSpool);
    CHECK(wrong.exitCode == 4);
    CHECK(wrong.err.find("Wrong password") != std::string::npos);
    CHECK(wrong.err.find("Guess3d") == std::string::npos);
    CHECK(json::parse(wrong.out)["spooled"].get<uint64_t>() == report["records"]["flow"].get<uint64_t>() +
                                                                   report["records"]["finding"].get<uint64_t>() +
                                                                   report["records"]["series"].get<uint64_t>());

    // https without the CA that signed the server's certificate: not trusted, nothing sent.
    const TempDir untrustedSpool("ch-spool-untrusted");
    const auto untrusted = exportTo(fmt::format("clickhouse://writer:w%40ter%3Aproof@{}?secure=true", where), "tls-4",
                                    untrustedSpool);
    CHECK(untrusted.exitCode == 4);
    CHECK(untrusted.err.find("certificate") != std::string::npos);
    CHECK(rows(server, "fleet_tls.flows", "host IN ('tls-3', 'tls-4')") == 0);
}
