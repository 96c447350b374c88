#pragma once
#include <optional>
#include <string>
#include <vector>

namespace tcpscope {

/// A point's clock as the user knows it: how far it is ahead of the reference point's at the
/// reference's first packet, and how much faster it runs.
struct GivenClock {
    double offsetMs = 0;
    double driftPpm = 0;
};

/// One place where packets were captured (a host, one side of a proxy): a name and the files
/// recorded there, merged in time order as one capture of that place.
struct CapturePoint {
    std::string name;
    std::vector<std::string> files;
    /// The clock as the user gives it (--clock), instead of the fitted one.
    std::optional<GivenClock> clock = std::nullopt;
};

}  // namespace tcpscope
