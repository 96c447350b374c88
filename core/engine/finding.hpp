#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tcp/connection.hpp"

namespace tcpscope {

/// How bad a finding is: error (it broke something), warning (it works but costs or is fragile), info.
enum class Severity : uint8_t { Error, Warning, Info };
/// "error", "warning" or "info".
std::string_view severityName(Severity severity);

/// One diagnosed problem, as it appears in the report's `findings` array.
struct Finding {
    uint32_t id = 0;                  ///< position in the FindingLog, stable while the finding grows
    std::string kind;                 ///< e.g. "delayed_ack_stall", "port_reuse"
    Severity severity = Severity::Info;
    uint32_t connection = kNoConnection;  ///< the flow it concerns, or kNoConnection
    int64_t tsNs = 0;                 ///< when it started
    double durationMs = 0;            ///< time it cost
    std::vector<uint32_t> frames;     ///< frame numbers of the evidence, in order
    std::string summary;              ///< one sentence: what happened, what it cost, what fixes it
    nlohmann::json evidence = nlohmann::json::object();  ///< kind-specific fields
};

}  // namespace tcpscope
