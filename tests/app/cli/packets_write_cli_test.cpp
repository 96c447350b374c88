// `tcpscope-cli packets FILE -Y EXPR -w OUT` on the samples: OUT holds exactly the packets the same
// command lists, each as the input holds it (bytes, lengths, time, link type), in the input's
// format; and the same packets as `tshark -r FILE -Y EXPR -w OUT` (compared when tshark is
// installed). Every file is read back with libpcap, which tcpscope's own reader is not.
#include <pcap/pcap.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;
using tcpscope::test::CommandOptions;
using tcpscope::test::describeCommand;
using tcpscope::test::findInPath;
using tcpscope::test::runCommand;

// The filters a Wireshark user types before File > Export Specified Packets > Displayed.
constexpr const char* kFilters[] = {"tcp.port == 3306", "tcp.analysis.flags", "tcp.flags.syn == 1",
                                    "frame.number >= 20 && frame.number <= 80"};

/// One frame as libpcap reads it.
struct Frame {
    int64_t tsNs = 0;
    uint32_t capturedLength = 0;
    uint32_t originalLength = 0;
    std::vector<uint8_t> bytes;

    bool operator==(const Frame&) const = default;
};

struct CaptureFrames {
    int linkType = -1;
    std::vector<Frame> frames;
    std::string problem;  ///< libpcap's error, empty when the whole file was read
};

CaptureFrames readWithLibpcap(const fs::path& path) {
    CaptureFrames read;
    char error[PCAP_ERRBUF_SIZE] = {};
    pcap_t* handle = pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, error);
    if (handle == nullptr) {
        read.problem = error;
        return read;
    }
    read.linkType = pcap_datalink(handle);
    pcap_pkthdr* header = nullptr;
    const u_char* data = nullptr;
    int status = 0;
    while ((status = pcap_next_ex(handle, &header, &data)) == 1) {
        read.frames.push_back({int64_t{header->ts.tv_sec} * 1'000'000'000 + header->ts.tv_usec, header->caplen,
                               header->len, std::vector<uint8_t>(data, data + header->caplen)});
    }
    if (status != PCAP_ERROR_BREAK) {
        read.problem = pcap_geterr(handle);
    }
    pcap_close(handle);
    return read;
}

/// The first four bytes of `path`: a1b2c3d4 / a1b23c4d (pcap) or 0a0d0d0a (pcapng), as the host reads them.
uint32_t magicOf(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    uint32_t magic = 0;
    in.read(reinterpret_cast<char*>(&magic), sizeof magic);
    return magic;
}

/// The frame numbers `tcpscope-cli packets CAPTURE -Y EXPR` lists.
std::vector<uint32_t> listedFrames(const fs::path& capture, const std::string& expression) {
    const std::vector<std::string> command{TCPSCOPE_CLI, "packets", capture.string(), "-Y", expression,
                                           "--format",   "json"};
    const auto result = runCommand(command);
    INFO(describeCommand(command) << ": " << result.err);
    REQUIRE(result.ok());
    const nlohmann::json document = nlohmann::json::parse(result.out);
    std::vector<uint32_t> frames;
    for (const auto& packet : document.at("packets")) {
        frames.push_back(packet.at("frame").get<uint32_t>());
    }
    return frames;
}

fs::path scratchFolder() {
    const fs::path folder = fs::temp_directory_path() / ("tcpscope-packets-write-" + std::to_string(::getpid()));
    fs::create_directories(folder);
    return folder;
}

std::vector<fs::path> sampleCaptures() {
    std::vector<fs::path> captures;
    for (const auto& entry : fs::directory_iterator(fs::path(TCPSCOPE_SOURCE_DIR) / "samples")) {
        const std::string extension = entry.path().extension().string();
        if (entry.is_regular_file() && (extension == ".pcap" || extension == ".pcapng")) {
            captures.push_back(entry.path());
        }
    }
    std::sort(captures.begin(), captures.end());
    return captures;
}

}  // namespace

TEST_CASE("packets -w writes exactly the packets packets -Y lists, unchanged, and those tshark -Y -w writes",
          "[cli][packets][tshark]") {
    const std::vector<fs::path> captures = sampleCaptures();
    REQUIRE(captures.size() >= 10);
    const fs::path scratch = scratchFolder();
    const bool tshark = findInPath("tshark").has_value();
    if (!tshark) {
        WARN(
            "tshark not found: the written packets were checked against the input and the listing only, "
            "not against tshark -Y -w");
    }
    CommandOptions quietTshark;
    quietTshark.environment["WIRESHARK_CONFIG_DIR"] = scratch.string();  // no developer's profile
    size_t comparedWithTshark = 0;
    size_t nonEmpty = 0;
    for (const fs::path& capture : captures) {
        const CaptureFrames input = readWithLibpcap(capture);
        REQUIRE(input.problem.empty());
        const bool pcapng = capture.extension() == ".pcapng";
        for (const std::string expression : kFilters) {
            INFO(capture.filename().string() << " -Y '" << expression << "'");
            const std::vector<uint32_t> listed = listedFrames(capture, expression);
            const fs::path written = scratch / (pcapng ? "tcpscope.pcapng" : "tcpscope.pcap");
            const std::vector<std::string> command{TCPSCOPE_CLI, "packets", capture.string(), "-Y",
                                                   expression,   "-w",      written.string()};
            const auto result = runCommand(command);
            INFO(describeCommand(command) << ": " << result.err);
            REQUIRE(result.ok());
            CHECK(result.out.empty());
            CHECK(result.err.find("wrote " + written.string() + ": " + std::to_string(listed.size()) + " packets") !=
                  std::string::npos);

            // The input's format, link type and frames, in the listing's order.
            CHECK((magicOf(written) == 0x0a0d0d0a) == pcapng);
            const CaptureFrames output = readWithLibpcap(written);
            REQUIRE(output.problem.empty());
            CHECK(output.linkType == input.linkType);
            std::vector<Frame> expected;
            for (const uint32_t frame : listed) {
                REQUIRE(frame >= 1);
                REQUIRE(frame <= input.frames.size());
                expected.push_back(input.frames[frame - 1]);
            }
            CHECK(output.frames.size() == listed.size());
            CHECK(output.frames == expected);
            nonEmpty += listed.empty() ? 0 : 1;

            if (tshark) {
                const fs::path theirs = scratch / "tshark.pcapng";
                const std::vector<std::string> tsharkCommand{"tshark", "-n",       "-r", capture.string(),
                                                             "-Y",     expression, "-w", theirs.string()};
                const auto tsharkResult = runCommand(tsharkCommand, quietTshark);
                INFO(describeCommand(tsharkCommand) << ": " << tsharkResult.err);
                REQUIRE(tsharkResult.ok());
                const CaptureFrames wireshark = readWithLibpcap(theirs);
                REQUIRE(wireshark.problem.empty());
                CHECK(output.frames.size() == wireshark.frames.size());
                CHECK(output.frames == wireshark.frames);
                ++comparedWithTshark;
            }
        }
    }
    CHECK(nonEmpty >= captures.size() * 2);  // the filters pick something on most samples
    if (tshark) {
        SUCCEED(comparedWithTshark << " exports compared with tshark -Y -w");
    }
    fs::remove_all(scratch);
}

TEST_CASE("packets -w with --flow writes that flow's packets, and says in one line what it cannot do",
          "[cli][packets]") {
    const fs::path scratch = scratchFolder();
    const fs::path sample = fs::path(TCPSCOPE_SOURCE_DIR) / "samples" / "proxy-nagle.pcap";
    const fs::path written = scratch / "flow.pcap";

    SECTION("--flow") {
        const auto listing = runCommand({TCPSCOPE_CLI, "packets", sample.string(), "--flow", "1", "--format", "json"});
        REQUIRE(listing.ok());
        const size_t listed = nlohmann::json::parse(listing.out).at("packets").size();
        REQUIRE(listed > 0);
        const auto result =
            runCommand({TCPSCOPE_CLI, "packets", sample.string(), "--flow", "1", "-w", written.string()});
        REQUIRE(result.ok());
        CHECK(readWithLibpcap(written).frames.size() == listed);
    }
    SECTION("a file that is no capture: the file and the reason, exit 3") {
        const fs::path notCapture = scratch / "notes.txt";
        std::ofstream(notCapture) << "not a capture\n";
        const auto result = runCommand({TCPSCOPE_CLI, "packets", notCapture.string(), "-w", written.string()});
        CHECK(result.exitCode != 0);
        CHECK(result.err.find(notCapture.string()) != std::string::npos);
        CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
        CHECK_FALSE(fs::exists(written));
    }
    SECTION("standard input: refused, exit 2") {
        const auto result = runCommand({TCPSCOPE_CLI, "packets", "-", "-w", written.string()});
        CHECK(result.exitCode == 2);
        CHECK(result.err.find("-w copies packets from one capture file") != std::string::npos);
        CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
        CHECK_FALSE(fs::exists(written));
    }
    SECTION("the input as the output: refused, the input untouched") {
        const fs::path copy = scratch / "input.pcap";
        fs::copy_file(sample, copy);
        const auto before = fs::file_size(copy);
        const auto result =
            runCommand({TCPSCOPE_CLI, "packets", copy.string(), "-Y", "tcp.port == 3306", "-w", copy.string()});
        CHECK(result.exitCode == 3);
        CHECK(result.err.find("refusing to write the exported packets over the capture") != std::string::npos);
        CHECK(fs::file_size(copy) == before);
    }
    SECTION("an output folder that does not exist: the output and the reason, exit 3") {
        const fs::path nowhere = scratch / "no-such-folder" / "out.pcap";
        const auto result = runCommand({TCPSCOPE_CLI, "packets", sample.string(), "-w", nowhere.string()});
        CHECK(result.exitCode == 3);
        CHECK(result.err.find(nowhere.string()) != std::string::npos);
        CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
    }
    fs::remove_all(scratch);
}
