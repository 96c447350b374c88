#pragma once
// The findings of some detectors on one of the real captures in samples/.
#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/capture_analysis.hpp"

namespace tcpscope::test {

/// Analyses samples/NAME and keeps the findings of the given kinds, in the analysis's order.
inline std::vector<Finding> sampleFindings(const std::string& name, std::initializer_list<FindingKind> kinds) {
    const std::filesystem::path path = std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / name;
    REQUIRE(std::filesystem::exists(path));
    CaptureAnalysis analysis = analyzeCaptures({path.string()}, {});
    std::vector<Finding> kept;
    for (Finding& finding : analysis.findings) {
        if (std::find(kinds.begin(), kinds.end(), finding.kind) != kinds.end()) {
            kept.push_back(std::move(finding));
        }
    }
    return kept;
}

}  // namespace tcpscope::test
