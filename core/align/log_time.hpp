#pragma once
#include <cstdint>

#include "capture/time_origin.hpp"

namespace tcpscope {

/// Log times on the capture's clock are held within this (2^62 ns, 146 years either side of the
/// capture's origin; 1824 to 2116 on the epoch's): an offset fitted to garbage times, or a log
/// whose times are garbage, then cannot overflow any sum or difference made from them.
inline constexpr int64_t kLogTimeReachNs = int64_t{1} << 62;

/// `logNs + offsetNs` (a log's time on the capture's clock, a call's end after its start), held
/// within ±kLogTimeReachNs.
inline int64_t onCaptureClock(int64_t logNs, int64_t offsetNs) { return heldSumNs(logNs, offsetNs, kLogTimeReachNs); }

}  // namespace tcpscope
