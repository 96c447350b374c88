// Inputs that hold what no writer expects, through tcpscope-cli: a pcapng file whose packet and
// section comments and interface names are binary bytes (the class of input that made `analyze
// --format json` abort), under a file name that is not UTF-8 either. Every output format exits 0
// and prints valid UTF-8; every JSON one parses under Python's strict parser.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "capture/pcapng_writer.hpp"
#include "run_command.hpp"
#include "support/packet_builder.hpp"
#include "support/stall_conversation.hpp"
#include "text/valid_utf8.hpp"

using namespace tcpscope;
using tcpscope::test::runCommand;

namespace {

namespace fs = std::filesystem;

const std::vector<std::string>& hostileStrings() {
    static const std::vector<std::string> strings = {
        std::string("binary ") + '\0' + "\xfe\xca(\x01\xff comment",
        "overlong \xc0\xaf \xe0\x80\xaf, lone surrogate \xed\xa0\x80, past U+10FFFF \xf4\x90\x80\x80",
        "quote \" backslash \\ <script>alert(1)</script> [x](http://y) `z` | #35; ; %%",
        "\x1b[31mred\x1b[0m bell \x07 delete \x7f line\nbreak",
        "cut short \xe2\x82",
    };
    return strings;
}

// A retransmission stall (a request resent after 1.2 s) whose every packet carries a hostile comment,
// in a pcapng file whose section and interface carry them too.
fs::path writeHostileCapture(const std::string& name) {
    const fs::path path = test::uniqueTempPath(name, ".pcapng");
    PcapngSectionInfo section;
    section.hardware = hostileStrings()[1];
    section.os = hostileStrings()[3];
    section.application = hostileStrings()[2];
    section.comments = {hostileStrings()[0], hostileStrings()[4]};
    PcapngWriter writer(path.string(), section);
    PcapngInterfaceInfo interface;
    interface.linkType = linktype::kEthernet;
    interface.name = hostileStrings()[0];
    interface.description = hostileStrings()[2];
    const uint32_t id = writer.addInterface(interface);
    const int64_t startNs = 1'700'000'000'000'000'000;
    const std::vector<test::TimedFrame> frames = test::retransmissionStallFrames();
    for (size_t index = 0; index < frames.size(); ++index) {
        const std::vector<uint8_t>& frame = frames[index].bytes;
        PcapngPacket packet{id, startNs + frames[index].atMs * 1'000'000, static_cast<uint32_t>(frame.size()), frame,
                            hostileStrings()[index % hostileStrings().size()]};
        writer.writePacket(packet);
    }
    writer.close();
    return path;
}

// Python's json module over the bytes decoded with errors='strict': what any consumer would do.
bool strictJson(const std::string& text, std::string& problem) {
    const fs::path file = test::uniqueTempPath("output", ".json");
    std::ofstream(file, std::ios::binary) << text;
    const auto checked = runCommand({"python3", "-c",
                                     "import json, sys; json.loads(open(sys.argv[1], 'rb').read().decode('utf-8', "
                                     "errors='strict'))",
                                     file.string()});
    fs::remove(file);
    problem = checked.err;
    return checked.ok();
}

}  // namespace

TEST_CASE("binary comments and names: every output format exits 0 with valid UTF-8, every JSON strict-valid",
          "[cli][utf8]") {
    const fs::path capture = writeHostileCapture("hostile-\xff\xfe-name");
    struct Output {
        std::vector<std::string> arguments;
        bool json;
    };
    const std::vector<Output> outputs = {
        {{"analyze", "--format", "json"}, true}, {{"analyze"}, false},
        {{"packets", "--format", "json"}, true}, {{"packets"}, false},
        {{"flows", "--format", "json"}, true},   {{"flows"}, false},
        {{"mermaid", "--flow", "0"}, false},
    };
    for (const Output& output : outputs) {
        std::vector<std::string> argv{TCPSCOPE_CLI};
        argv.insert(argv.end(), output.arguments.begin(), output.arguments.end());
        argv.push_back(capture.string());
        CAPTURE(test::describeCommand(argv));
        const auto result = runCommand(argv);
        CHECK(result.exitCode == 0);
        CHECK(result.err.empty());
        CHECK(isValidUtf8(result.out));
        if (output.json) {
            std::string problem;
            const bool strict = strictJson(result.out, problem);
            INFO(problem);
            CHECK(strict);
        }
    }
    // What the JSON says of them: the repaired text, a retransmission stall still found.
    const auto json = runCommand({TCPSCOPE_CLI, "packets", capture.string(), "--format", "json"});
    CHECK(json.out.find("\"comment\": \"binary \\u0000\xef\xbf\xbd\xef\xbf\xbd(\\u0001\xef\xbf\xbd comment\"") !=
          std::string::npos);
    const auto analysis = runCommand({TCPSCOPE_CLI, "analyze", capture.string(), "--format", "json"});
    CHECK(analysis.out.find("\"retransmission_stall\"") != std::string::npos);
    CHECK(analysis.out.find("hostile-\xef\xbf\xbd\xef\xbf\xbd-name") != std::string::npos);
    fs::remove(capture);
}

TEST_CASE("a capture cut short says so in its summary, text and JSON", "[cli][truncated]") {
    const fs::path whole = writeHostileCapture("whole");
    std::ifstream in(whole, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const fs::path cut = test::uniqueTempPath("cut", ".pcapng");
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() - 37);
    const auto json = runCommand({TCPSCOPE_CLI, "analyze", cut.string(), "--format", "json"});
    CHECK(json.exitCode == 0);
    CHECK(json.out.find("\"cut_short\": {") != std::string::npos);
    const auto text = runCommand({TCPSCOPE_CLI, "analyze", cut.string()});
    CHECK(text.exitCode == 0);
    CHECK(text.out.find("  cut short: " + cut.string() + " ends ") != std::string::npos);
    const auto wholeText = runCommand({TCPSCOPE_CLI, "analyze", whole.string()});
    CHECK(wholeText.out.find("  cut short: ") == std::string::npos);
    fs::remove(whole);
    fs::remove(cut);
}
