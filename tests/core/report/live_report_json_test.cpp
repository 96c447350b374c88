// The report at the end of `tcpscope-cli capture --format json` is streamed on one line, not built
// as a tree: byte for byte what dump() printed of the tree with the capture's live section.
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "report/json_report.hpp"

namespace tcpscope {

TEST_CASE("the one-line streamed report with capture members is the tree's dump()", "[report][json][live]") {
    const std::string sample = GENERATE(as<std::string>{}, "backlog-overflow.pcap", "churn-exhaustion.pcap",
                                        "proxy-nagle.pcap", "http-tw-reuse.pcap", "proxy-nagle-ttt.pcapng");
    CAPTURE(sample);
    const CaptureAnalysis analysis = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/" + sample}, AnalysisOptions{});
    const Json live = {{"interface", "lo"}, {"filter", nullptr}, {"kernel_dropped", 0}, {"loss", 0.25},
                       {"files", {"a.pcapng", "caf\xc3\xa9.pcapng"}}};
    Json tree = analysisReportJson(analysis);
    tree["capture"]["live"] = live;

    std::ostringstream text;
    {
        JsonStreamWriter writer(text, JsonStreamWriter::Compact{});
        writeAnalysisReportJson(writer, analysis, nullptr, Json{{"live", live}});
    }
    CHECK(text.str() == tree.dump());
    CHECK(text.str().find('\n') == std::string::npos);
}

}  // namespace tcpscope
