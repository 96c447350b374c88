#pragma once
#include <cstdint>
#include <string>

namespace tcpscope {

/// The UTC time `text` names, in nanoseconds since the epoch: "2026-11-27T18:00:00Z" or
/// "2026-11-27 18:00:00" (UTC), epoch seconds ("1795800000"), or a span back from `nowNs` ("90s",
/// "30m", "2h", "7d"). Throws std::invalid_argument with a one-line reason.
int64_t parseSinceTime(const std::string& text, int64_t nowNs);

}  // namespace tcpscope
