#pragma once
// What the tests of a live capture's records compare them with: the analysis of the file the
// capture wrote (--write), by tcpscope-cli analyze and flows.
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "support/export_fixtures.hpp"

namespace tcpscope::test {

/// The delayed_ack_stall findings of `capture` as `analyze` gives them: flow id -> delayed requests.
inline std::map<int64_t, uint64_t> analysedDelayedRequests(const std::string& capture) {
    std::map<int64_t, uint64_t> byFlow;
    const nlohmann::json report = cliJson({"analyze", capture, "--format", "json"});
    for (const nlohmann::json& finding : report["findings"]) {
        if (finding["kind"] == "delayed_ack_stall") {
            byFlow[finding["flow"].get<int64_t>()] = finding["impact"]["delayed_requests"].get<uint64_t>();
        }
    }
    return byFlow;
}

/// How many flows (connection generations) `flows` finds in `capture`.
inline size_t analysedFlowCount(const std::string& capture) {
    return cliJson({"flows", capture, "--format", "json"})["flows"].size();
}

}  // namespace tcpscope::test
