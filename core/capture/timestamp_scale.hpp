#pragma once
#include <cstdint>

#include "capture/time_origin.hpp"

namespace tcpscope {

/// Converts pcapng timestamps, counted in units of an interface's if_tsresol and shifted by its
/// if_tsoffset, to moments after the Unix epoch. Any resolution works, from seconds down to
/// 2^-127 or 10^-127 s, and any 64-bit count of them: results are exact to the nanosecond (held
/// at the int64 limits of seconds, 292 billion years, only).
class TimestampScale {
public:
    /// The pcapng default: microseconds, no offset.
    TimestampScale() = default;
    /// From the raw if_tsresol byte (high bit clear: 10^-n s, set: 2^-n s) and if_tsoffset in seconds.
    static TimestampScale fromTsresol(uint8_t tsresol, int64_t offsetSeconds);

    /// The moment of a timestamp of `units` ticks.
    [[nodiscard]] EpochTime toEpochTime(uint64_t units) const;
    /// The same as nanoseconds after the epoch: no division, for every packet.
    [[nodiscard]] WideNs toEpochNs(uint64_t units) const;

private:
    enum class Kind : uint8_t { Multiply, Divide, Shift };

    Kind kind_ = Kind::Multiply;
    uint8_t shift_ = 0;       // Shift: ns = units * 1e9 / 2^shift
    uint64_t factor_ = 1000;  // Multiply: ns = units * factor; Divide: ns = units / factor (0: always 0)
    int64_t offsetSeconds_ = 0;
};

}  // namespace tcpscope
