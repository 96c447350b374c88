#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "detect/finding_kind.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// How bad a finding is: error (it broke something), warning (it works but costs or is fragile), info.
enum class Severity : uint8_t { Error, Warning, Info };
/// "error", "warning" or "info".
std::string_view severityName(Severity severity);

/// One diagnosed problem, as it appears in the report's `findings` array.
struct Finding {
    uint32_t id = 0;                  ///< position in the FindingLog, stable while the finding grows
    /// What it is about (its JSON name: findingKindName); every detector sets its own.
    FindingKind kind = FindingKind::DelayedAckStall;
    Severity severity = Severity::Info;
    /// Live capture only (every finding of a finished analysis has all three false):
    bool ongoing = false;      ///< a stall of it is still going on; durationMs counts it up to the capture clock
    bool provisional = false;  ///< only the passing of time shows it so far; a packet confirms it or it is withdrawn
    bool withdrawn = false;    ///< was provisional, and the packets showed it was none: no longer a finding
    uint32_t connection = kNoConnection;  ///< the flow it concerns, or kNoConnection
    int64_t tsNs = 0;                 ///< when it started
    double durationMs = 0;            ///< time it cost
    std::vector<uint32_t> frames;     ///< frame numbers of the evidence, in order
    std::string summary;              ///< one sentence: what happened, what it cost, what fixes it
    nlohmann::json evidence = nlohmann::json::object();  ///< kind-specific fields
};

}  // namespace tcpscope
