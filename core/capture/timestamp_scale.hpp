#pragma once
#include <cstdint>

namespace tcpscope {

/// Converts pcapng timestamps, counted in units of an interface's if_tsresol and shifted by its
/// if_tsoffset, to nanoseconds since the Unix epoch. Any resolution works, from seconds down to
/// 2^-127 or 10^-127 s; results beyond the int64 range are clamped rather than wrapped.
class TimestampScale {
public:
    /// The pcapng default: microseconds, no offset.
    TimestampScale() = default;
    /// From the raw if_tsresol byte (high bit clear: 10^-n s, set: 2^-n s) and if_tsoffset in seconds.
    static TimestampScale fromTsresol(uint8_t tsresol, int64_t offsetSeconds);

    /// Nanoseconds since the epoch of a timestamp of `units` ticks.
    [[nodiscard]] int64_t toNs(uint64_t units) const;

private:
    enum class Kind : uint8_t { Multiply, Divide, Shift };

    Kind kind_ = Kind::Multiply;
    uint8_t shift_ = 0;       // Shift: ns = units * 1e9 / 2^shift
    uint64_t factor_ = 1000;  // Multiply: ns = units * factor; Divide: ns = units / factor (0: always 0)
    int64_t offsetSeconds_ = 0;
};

}  // namespace tcpscope
