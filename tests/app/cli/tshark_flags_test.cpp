// Checks, frame by frame, that `tcpscope-cli packets FILE --format json` marks every TCP packet of every
// capture in samples/ with the same analysis flags as tshark 4.0's tcp.analysis.* fields.
// Skipped (with a warning) when tshark 4.0 is not installed. The rules tcpscope follows, with the probe
// captures that pinned them down, are written up in the TCP analysis spec (wireshark-tcp-analysis.md).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;
using tcpscope::test::CommandOptions;
using tcpscope::test::describeCommand;
using tcpscope::test::findInPath;
using tcpscope::test::runCommand;

/// Wireshark's flag names (the part after "tcp.analysis."), as tcpscope prints them in "analysis".
constexpr std::array<std::string_view, 15> kFlagNames{
    "retransmission", "fast_retransmission", "spurious_retransmission", "out_of_order", "lost_segment",
    "ack_lost_segment", "duplicate_ack", "zero_window", "zero_window_probe", "zero_window_probe_ack",
    "window_full", "window_update", "keep_alive", "keep_alive_ack", "reused_ports"};

/// A place where tcpscope disagrees with tshark 4.0 on purpose. Every entry needs a reason a user would accept.
struct KnownDifference {
    std::string_view capture;  ///< capture file name inside samples/ (no folder), or "*" for every capture
    uint32_t frame;            ///< frame number, or 0 for every frame of the capture
    std::string_view flag;     ///< one of kFlagNames
    std::string_view reason;   ///< why tcpscope deliberately differs here
};

/// Deliberate differences from tshark 4.0; tcpscope aims to agree everywhere else.
/// Example entry: {"*", 0, "window_update", "tshark 4.0 flags the first pure ACK with raw seq 0 and ack 0"},
constexpr std::array<KnownDifference, 2> kKnownDifferences{{
    {"rtt-duplicated.pcapng", 24, "retransmission",
     "the file holds every packet twice, out of time order; tcpscope leaves the copies out, so the segment "
     "before frame 24 is its original and not a copy tshark counted, and it is out of order, not resent"},
    {"rtt-duplicated.pcapng", 24, "out_of_order", "as above"},
}};

/// Per frame, the set of flags as a bit mask over kFlagNames.
using FlagsByFrame = std::map<uint32_t, uint32_t>;

std::string flagList(uint32_t mask) {
    if (mask == 0) {
        return "nothing";
    }
    std::string text;
    for (std::size_t i = 0; i < kFlagNames.size(); ++i) {
        if ((mask & (1u << i)) != 0) {
            text += text.empty() ? "" : "+";
            text += kFlagNames[i];
        }
    }
    return text;
}

std::string lowercase(std::string text) {
    for (char& c : text) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return text;
}

/// Capture files tshark can read: pcap / pcapng, plain or gzip / zstd compressed.
bool isCaptureFile(const fs::path& path) {
    const std::string name = lowercase(path.filename().string());
    for (const std::string_view base : {".pcap", ".pcapng", ".cap"}) {
        for (const std::string_view compression : {"", ".gz", ".zst", ".zstd"}) {
            const std::string suffix = std::string(base) + std::string(compression);
            if (name.size() > suffix.size() && name.ends_with(suffix)) {
                return true;
            }
        }
    }
    return false;
}

/// samples/, or the folder named by TCPSCOPE_TSHARK_FLAGS_SAMPLES (probe captures; the public captures
/// beside the project, as the ctest "realworld: analysis flags agree with tshark" does).
fs::path samplesFolder() {
    if (const char* overrideFolder = std::getenv("TCPSCOPE_TSHARK_FLAGS_SAMPLES"); overrideFolder && *overrideFolder) {
        return overrideFolder;
    }
    return fs::path(TCPSCOPE_SOURCE_DIR) / "samples";
}

std::vector<fs::path> captureFiles(const fs::path& folder) {
    std::vector<fs::path> files;
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
        return files;
    }
    for (auto it = fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec) && isCaptureFile(it->path())) {
            files.push_back(it->path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

/// An empty Wireshark configuration folder, so a developer's own profile (preferences, "Decode As")
/// cannot change what tshark reports: tcpscope follows the default preferences.
const fs::path& emptyWiresharkConfig() {
    static const fs::path folder = [] {
        fs::path path = fs::temp_directory_path() / ("tcpscope-empty-wireshark-config-" + std::to_string(::getpid()));
        fs::create_directories(path);
        return path;
    }();
    return folder;
}

/// "4.0.17" from `tshark --version`, or empty when tshark is missing or unreadable.
std::string tsharkVersion() {
    if (!findInPath("tshark")) {
        return {};
    }
    const auto result = runCommand({"tshark", "--version"});
    if (!result.ok()) {
        return {};
    }
    // First line: "TShark (Wireshark) 4.0.17 (Git v4.0.17 packaged as 4.0.17-0+deb12u3)."
    const std::string firstLine = result.out.substr(0, result.out.find('\n'));
    const auto marker = firstLine.find(") ");
    if (marker == std::string::npos) {
        return {};
    }
    std::string version = firstLine.substr(marker + 2);
    return version.substr(0, version.find(' '));
}

/// tshark's analysis flags for every frame of `capture`, in one pass.
/// One `-e tcp.analysis.X` column per flag: the column is non-empty exactly when the display filter
/// `tcp.analysis.X` matches the frame (checked against per-flag `-Y` runs on 25 probe captures; this holds
/// because these fields carry no value and tshark prints "1" for a present value-less field).
FlagsByFrame tsharkFlags(const fs::path& capture, std::string& problem) {
    std::vector<std::string> command{"tshark", "-n", "-r", capture.string(), "-o", "tcp.analyze_sequence_numbers:TRUE",
                                     "-T", "fields", "-E", "separator=/t", "-E", "occurrence=f", "-E", "header=n",
                                     "-e", "frame.number"};
    for (const auto name : kFlagNames) {
        command.push_back("-e");
        command.push_back("tcp.analysis." + std::string(name));
    }
    CommandOptions options;
    options.environment["WIRESHARK_CONFIG_DIR"] = emptyWiresharkConfig().string();
    const auto result = runCommand(command, options);
    FlagsByFrame flags;
    // A file that ends inside a packet: tshark prints every whole frame, then fails (exit 2).
    const bool cutShort = result.exitCode == 2 && result.err.find("cut short in the middle of a packet") != std::string::npos;
    if (!result.ok() && !cutShort) {
        problem = describeCommand(command) + " failed (exit " + std::to_string(result.exitCode) + "): " + result.error +
                  result.err;
        return flags;
    }
    std::istringstream lines(result.out);
    std::string line;
    while (std::getline(lines, line)) {
        std::vector<std::string> columns;
        std::size_t start = 0;
        while (true) {
            const auto tab = line.find('\t', start);
            columns.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
            if (tab == std::string::npos) {
                break;
            }
            start = tab + 1;
        }
        if (columns.empty() || columns.front().empty()) {
            continue;
        }
        const auto frame = static_cast<uint32_t>(std::stoul(columns.front()));
        uint32_t mask = 0;
        for (std::size_t i = 0; i < kFlagNames.size() && i + 1 < columns.size(); ++i) {
            if (!columns[i + 1].empty()) {
                mask |= 1u << i;
            }
        }
        if (mask != 0) {
            flags[frame] |= mask;
        }
    }
    return flags;
}

/// tcpscope's analysis flags for every frame of `capture`, from `tcpscope-cli packets FILE --format json`.
FlagsByFrame tcpscopeFlags(const fs::path& capture, std::string& problem, std::set<uint32_t>& listed) {
    const std::vector<std::string> command{TCPSCOPE_CLI, "packets", capture.string(), "--format", "json"};
    const auto result = runCommand(command);
    FlagsByFrame flags;
    if (!result.ok()) {
        problem = describeCommand(command) + " failed (exit " + std::to_string(result.exitCode) + "): " + result.error +
                  result.err;
        return flags;
    }
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(result.out);
    } catch (const nlohmann::json::exception& e) {
        problem = describeCommand(command) + " printed invalid JSON: " + e.what();
        return flags;
    }
    if (!document.is_object() || document.value("schema", "") != "tcpscope/1" || !document.contains("packets") ||
        !document["packets"].is_array()) {
        problem = describeCommand(command) + " printed JSON without schema \"tcpscope/1\" and a \"packets\" array";
        return flags;
    }
    for (const auto& packet : document["packets"]) {
        if (!packet.is_object() || !packet.contains("frame") || !packet["frame"].is_number_unsigned()) {
            problem = "a packet without an unsigned \"frame\": " + packet.dump();
            return flags;
        }
        const auto frame = packet["frame"].get<uint32_t>();
        listed.insert(frame);
        uint32_t mask = 0;
        if (packet.contains("analysis")) {
            for (const auto& name : packet["analysis"]) {
                const auto found = std::find(kFlagNames.begin(), kFlagNames.end(), name.is_string() ? name.get<std::string>() : "");
                if (found == kFlagNames.end()) {
                    problem = "frame " + std::to_string(frame) + ": unknown analysis flag " + name.dump();
                    return flags;
                }
                mask |= 1u << static_cast<unsigned>(found - kFlagNames.begin());
            }
        }
        if (mask != 0) {
            flags[frame] |= mask;  // a frame with two TCP headers (a tunnel) is listed twice
        }
    }
    return flags;
}

/// How many TCP segments tcpscope left out of `capture` as copies of earlier ones (a file holding its
/// packets twice: `capture.other_packets.duplicates` of the analyze report), or -1 if unreadable.
long long copiesLeftOut(const fs::path& capture) {
    const auto result = runCommand({TCPSCOPE_CLI, "analyze", capture.string(), "--format", "json"});
    if (!result.ok()) {
        return -1;
    }
    try {
        return nlohmann::json::parse(result.out).at("capture").at("other_packets").at("duplicates").get<long long>();
    } catch (const nlohmann::json::exception&) {
        return -1;
    }
}

/// The flags of `difference` that a KnownDifference excuses, recording which entries were used.
uint32_t excusedFlags(const std::string& captureName, uint32_t frame, uint32_t difference, std::set<std::size_t>& used) {
    uint32_t excused = 0;
    std::size_t entry = 0;
    for (const KnownDifference& known : kKnownDifferences) {
        ++entry;  // 1-based, so the loop has no "index < 0" comparison while the list is empty
        if ((known.capture != "*" && known.capture != captureName) || (known.frame != 0 && known.frame != frame)) {
            continue;
        }
        for (std::size_t i = 0; i < kFlagNames.size(); ++i) {
            if ((difference & (1u << i)) != 0 && kFlagNames[i] == known.flag) {
                excused |= 1u << i;
                used.insert(entry);
            }
        }
    }
    return excused;
}

}  // namespace

TEST_CASE("tcpscope's analysis flags agree with tshark 4.0 on every sample capture", "[cli][tshark][samples]") {
    for (const KnownDifference& known : kKnownDifferences) {
        REQUIRE(std::find(kFlagNames.begin(), kFlagNames.end(), known.flag) != kFlagNames.end());
        REQUIRE(!known.reason.empty());
    }

    const std::string version = tsharkVersion();
    if (version.empty()) {
        // The marker ctest reads as a skip (tests/CMakeLists.txt: TCPSCOPE_SKIP_MARKER).
        WARN("test skipped: tshark not found: tcpscope's analysis flags were not compared with Wireshark's");
        return;
    }
    if (!version.starts_with("4.0.")) {
        WARN("test skipped: tshark " << version << " is not 4.0.x, whose analysis tcpscope follows");
        return;
    }
    const fs::path folder = samplesFolder();
    const std::vector<fs::path> captures = captureFiles(folder);
    REQUIRE_FALSE(
        captures.empty());  // the samples, or a folder of public captures found by tests/with_public_captures.sh
    REQUIRE(fs::exists(TCPSCOPE_CLI));

    std::set<std::size_t> usedKnownDifferences;
    for (const fs::path& capture : captures) {
        const std::string shownName = fs::relative(capture, folder).string();
        INFO("capture " << capture.string());

        std::string problem;
        FlagsByFrame expected = tsharkFlags(capture, problem);
        if (!problem.empty()) {
            FAIL_CHECK(problem);
            continue;
        }
        std::set<uint32_t> listed;
        const FlagsByFrame actual = tcpscopeFlags(capture, problem, listed);
        if (!problem.empty()) {
            FAIL_CHECK(problem);
            continue;
        }
        // A file holding packets twice: tcpscope leaves the copies out of the analysis (and says so in
        // capture_quality) where tshark calls them retransmissions or duplicate ACKs. Frames tshark
        // flags that tcpscope does not list are excused only if they are no more than the copies
        // tcpscope counted.
        std::vector<uint32_t> unlisted;
        for (const auto& [frame, mask] : expected) {
            if (!listed.contains(frame)) {
                unlisted.push_back(frame);
            }
        }
        if (!unlisted.empty() && static_cast<long long>(unlisted.size()) <= copiesLeftOut(capture)) {
            for (const uint32_t frame : unlisted) {
                expected.erase(frame);
            }
        }

        std::set<uint32_t> frames;
        for (const auto& [frame, mask] : expected) {
            frames.insert(frame);
        }
        for (const auto& [frame, mask] : actual) {
            frames.insert(frame);
        }
        std::ostringstream report;
        std::array<int, kFlagNames.size()> missing{};
        std::array<int, kFlagNames.size()> extra{};
        int differingFrames = 0;
        for (const uint32_t frame : frames) {
            const uint32_t tsharkMask = expected.contains(frame) ? expected.at(frame) : 0;
            const uint32_t tcpscopeMask = actual.contains(frame) ? actual.at(frame) : 0;
            const uint32_t difference = tsharkMask ^ tcpscopeMask;
            if (difference == 0) {
                continue;
            }
            if ((difference & ~excusedFlags(capture.filename().string(), frame, difference, usedKnownDifferences)) == 0) {
                continue;
            }
            ++differingFrames;
            for (std::size_t i = 0; i < kFlagNames.size(); ++i) {
                missing[i] += (tsharkMask & ~tcpscopeMask & (1u << i)) != 0 ? 1 : 0;
                extra[i] += (tcpscopeMask & ~tsharkMask & (1u << i)) != 0 ? 1 : 0;
            }
            report << shownName << " frame " << frame << ": tshark says " << flagList(tsharkMask) << ", tcpscope says "
                   << flagList(tcpscopeMask) << "\n";
        }
        if (differingFrames == 0) {
            SUCCEED(shownName << ": " << expected.size() << " flagged frame(s), all agree with tshark");
            continue;
        }
        // The full list goes to stdout unwrapped (Catch wraps its messages at 80 columns), one greppable line each.
        std::cout << report.str() << std::flush;
        std::ostringstream summary;
        summary << shownName << ": " << differingFrames
                << " frame(s) differ from tshark (listed above); per flag, missing in tcpscope / extra:";
        for (std::size_t i = 0; i < kFlagNames.size(); ++i) {
            if (missing[i] != 0 || extra[i] != 0) {
                summary << " " << kFlagNames[i] << " " << missing[i] << "/" << extra[i];
            }
        }
        FAIL_CHECK(summary.str());
    }

    // The known differences are about samples/: in another folder their files are not there.
    const bool samples = folder == fs::path(TCPSCOPE_SOURCE_DIR) / "samples";
    std::size_t entry = 0;
    for (const KnownDifference& known : kKnownDifferences) {
        const bool used = usedKnownDifferences.contains(++entry);
        if (samples && !used) {
            WARN("known difference no longer seen, remove it: " << known.capture << " frame " << known.frame << " "
                                                                 << known.flag);
        }
    }
    std::error_code ignored;
    fs::remove_all(emptyWiresharkConfig(), ignored);
}
