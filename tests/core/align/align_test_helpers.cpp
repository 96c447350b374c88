#include "align_test_helpers.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

#include "align/stall_confirmation.hpp"

namespace tcpscope::testing {

std::string sample(const std::string& name) { return std::string(TCPSCOPE_SOURCE_DIR) + "/samples/" + name; }

Aligned align(const std::string& captureFile, const std::vector<std::string>& logs, StraceClockOptions clock) {
    Aligned result;
    result.capture = analyzeCaptures({sample(captureFile)}, {});
    result.alignment = loadStraceLogs(logs, result.capture, clock);
    confirmFindingsWithSyscalls(result.capture, result.alignment);
    return result;
}

int confirmedStalls(const CaptureAnalysis& capture) {
    int confirmed = 0;
    for (const Finding& finding : capture.findings) {
        if (finding.kind == FindingKind::DelayedAckStall) {
            for (const StraceVerdict& verdict : capture.enrichments.of(finding.id).straceVerdicts) {
                confirmed += verdict.verdict == StraceVerdictKind::Confirmed ? 1 : 0;
                CHECK(verdict.verdict != StraceVerdictKind::Refuted);
            }
        }
    }
    return confirmed;
}

int stalls(const CaptureAnalysis& capture) {
    int count = 0;
    for (const Finding& finding : capture.findings) {
        if (finding.kind == FindingKind::DelayedAckStall) {
            count += static_cast<int>(finding.totalSpans);
        }
    }
    return count;
}

std::string rewrittenLog(const std::string& path, const std::string& name,
                         const std::function<std::string(const std::string&)>& rewrite) {
    std::ifstream in(path);
    const std::string target = (std::filesystem::temp_directory_path() / name).string();
    std::ofstream out(target);
    std::string line;
    while (std::getline(in, line)) {
        if (std::string rewritten = rewrite(line); !rewritten.empty()) {
            out << rewritten << '\n';
        }
    }
    return target;
}

std::string shiftedLog(const std::string& path, int minutes, int seconds) {
    const std::regex time(R"(^(\d+ +)?(\d\d):(\d\d):(\d\d)\.)");
    const std::string name = "tcpscope-shifted-" + std::to_string(minutes) + "-" + std::to_string(seconds) + ".strace";
    return rewrittenLog(path, name, [&](const std::string& line) {
        std::smatch match;
        if (!std::regex_search(line, match, time)) {
            return line;
        }
        int total = (std::stoi(match[2]) * 60 + std::stoi(match[3]) + minutes) * 60 + std::stoi(match[4]) + seconds;
        total = ((total % 86400) + 86400) % 86400;
        char clock[16];
        std::snprintf(clock, sizeof clock, "%02d:%02d:%02d.", total / 3600, total / 60 % 60, total % 60);
        return match[1].str() + clock + match.suffix().str();
    });
}

}  // namespace tcpscope::testing
