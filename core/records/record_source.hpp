#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "capture/time_origin.hpp"

namespace tcpscope {

/// What every record says of where it comes from: the host, the capture, the tcpscope that made it.
struct RecordSource {
    std::string host;
    std::string captureId;
    std::string version;  ///< e.g. "0.1.0+1046856ab12c"
    TimeOrigin origin;    ///< what the capture's times count from (records hold epoch nanoseconds)
};

/// A capture's id: 16 hex digits of the SHA-1 of the host, each file's name (without its folder) and
/// size, and the first frame's time, so the same files exported again from one host get the same id.
std::string captureIdOf(const std::string& host, const std::vector<std::string>& paths, int64_t firstTsNs);

}  // namespace tcpscope
