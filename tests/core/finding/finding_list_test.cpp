// FindingList: the findings of an analysis, read like a vector (random access, so the standard
// algorithms sort and search it), in chunks that growing never moves.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "finding/finding_list.hpp"

using namespace tcpscope;

namespace {

Finding startingAt(int64_t tsNs) {
    Finding finding;
    finding.tsNs = tsNs;
    return finding;
}

}  // namespace

TEST_CASE("a finding list sorts and searches like a vector, across its chunks", "[finding]") {
    FindingList findings;
    constexpr int64_t kCount = 1000;  // four chunks of 256
    for (int64_t made = 0; made < kCount; ++made) {
        findings.push_back(startingAt((made * 7919) % kCount));
    }
    const Finding* first = &findings[0];
    findings.push_back(startingAt(kCount));
    CHECK(&findings[0] == first);  // growing moved nothing

    std::sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) { return a.tsNs < b.tsNs; });
    REQUIRE(findings.size() == kCount + 1);
    for (size_t index = 0; index < findings.size(); ++index) {
        CHECK(findings[index].tsNs == static_cast<int64_t>(index));
    }
    const auto found = std::lower_bound(findings.begin(), findings.end(), 600,
                                        [](const Finding& finding, int64_t tsNs) { return finding.tsNs < tsNs; });
    CHECK(found - findings.begin() == 600);
    CHECK((findings.end() - 1)->tsNs == kCount);
    CHECK(findings.back().tsNs == kCount);
}

TEST_CASE("a finding list is made from a vector, grown, and copied whole", "[finding]") {
    const std::vector<Finding> made = {startingAt(5), startingAt(3)};
    FindingList findings(made);
    findings.growTo(300);
    REQUIRE(findings.size() == 300);
    CHECK(findings[1].tsNs == 3);
    CHECK(findings[299].tsNs == 0);

    FindingList copy = findings;
    copy[0].tsNs = 9;
    CHECK(findings[0].tsNs == 5);
    CHECK(copy.size() == 300);
    findings.clear();
    CHECK(findings.empty());
    CHECK(copy.front().tsNs == 9);
}
