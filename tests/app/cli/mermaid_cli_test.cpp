// `tcpscope-cli mermaid`: the Mermaid text of a flow or a proxy pair, the same text the core makes.
#include <catch2/catch.hpp>
#include <string>

#include "analysis/capture_analysis.hpp"
#include "report/mermaid_sequence.hpp"
#include "run_command.hpp"

using namespace tcpscope;
using tcpscope::test::runCommand;

namespace {
const std::string kSample = TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap";

size_t count(const std::string& text, const std::string& needle) {
    size_t found = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) {
        ++found;
    }
    return found;
}
}  // namespace

TEST_CASE("mermaid prints the proxy pair's sequence diagram as the core writes it", "[cli][mermaid]") {
    const auto result =
        runCommand({TCPSCOPE_CLI, "mermaid", kSample, "--flow", "0", "--proxy-flow", "1", "--max-arrows", "40"});
    REQUIRE(result.ok());
    const CaptureAnalysis analysis = analyzeCaptures({kSample}, {});
    MermaidOptions options;
    options.maxArrows = 40;
    CHECK(result.out == mermaidSequence(SequenceDiagram::ofProxy(analysis, 0, 1), options));
    CHECK(result.out.rfind("sequenceDiagram\n", 0) == 0);
    CHECK(count(result.out, "->>") == 40);
    CHECK(count(result.out, "Note over P: 35 bytes held by Nagle for ") == 4);  // frames 20, 26, 33, 39
    CHECK(result.out.find("Note over C,S: 452 more packets not shown (limit of 40 arrows)") != std::string::npos);
}

TEST_CASE("mermaid of one flow, and its errors", "[cli][mermaid]") {
    const auto single = runCommand({TCPSCOPE_CLI, "mermaid", kSample, "--flow", "1"});
    REQUIRE(single.ok());
    CHECK(single.out.find("participant C as client 127.0.0.1:41402") != std::string::npos);
    CHECK(single.out.find("participant S as server 127.0.0.1:3306") != std::string::npos);
    CHECK(count(single.out, "Note over C: 35 bytes held by Nagle for ") > 0);

    const auto unknown = runCommand({TCPSCOPE_CLI, "mermaid", kSample, "--flow", "7"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.find("no flow 7") != std::string::npos);
    const auto same = runCommand({TCPSCOPE_CLI, "mermaid", kSample, "--flow", "1", "--proxy-flow", "1"});
    CHECK(same.exitCode == 2);
    const auto missing = runCommand({TCPSCOPE_CLI, "mermaid", "/no/such/capture.pcap", "--flow", "0"});
    CHECK(missing.exitCode == 3);
}
