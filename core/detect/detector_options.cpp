#include "detect/detector_options.hpp"

namespace tcpscope {

std::optional<DetectorOptions> DetectorOptions::forOs(const std::string& os) {
    DetectorOptions options;
    if (os == "linux") {
        return options;
    }
    if (os == "macos") {
        // macOS (BSD): delayed ACK about 100 ms, TIME_WAIT 2 x MSL = 30 s, IANA port range.
        options.timeWaitSeconds = 30;
        options.portRangeLow = 49152;
        options.portRangeHigh = 65535;
        return options;
    }
    if (os == "windows") {
        // Windows: delayed ACK 200 ms, TcpTimedWaitDelay 120 s by default (240 s on old versions).
        options.timeWaitSeconds = 120;
        options.portRangeLow = 49152;
        options.portRangeHigh = 65535;
        return options;
    }
    return std::nullopt;
}

}  // namespace tcpscope
