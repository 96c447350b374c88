#pragma once
#include <cmath>
#include <cstdint>

namespace tcpscope {

/// How far one clock is ahead of another, as a line over time: `offsetNs` at `originNs` (on the
/// other clock), growing by `drift` nanoseconds per nanosecond (50 ppm fast: 50e-6).
struct LinearClock {
    int64_t originNs = 0;
    double offsetNs = 0;
    double drift = 0;

    /// The offset at time `tNs` of the other clock.
    [[nodiscard]] double offsetAtNs(int64_t tNs) const {
        return offsetNs + drift * static_cast<double>(tNs - originNs);
    }
    /// A time of this clock as the other clock read it at that moment.
    [[nodiscard]] int64_t toOtherClockNs(int64_t tNs) const {
        // Drifts are parts per million: one step of the inverse is exact to far below a nanosecond.
        const int64_t guessNs = tNs - std::llround(offsetAtNs(tNs));
        return tNs - std::llround(offsetAtNs(guessNs));
    }
};

}  // namespace tcpscope
