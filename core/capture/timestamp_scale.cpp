#include "capture/timestamp_scale.hpp"

#include <limits>

namespace tcpscope {

namespace {

using Int128 = WideNs;
__extension__ typedef unsigned __int128 Uint128;  // NOLINT

constexpr uint64_t kNsPerSecond = 1'000'000'000;
constexpr int kNsDigits = 9;

/// 10^exponent, or 0 when it does not fit in 64 bits (exponent > 19).
uint64_t powerOfTen(int exponent) {
    uint64_t value = 1;
    for (int i = 0; i < exponent; ++i) {
        if (value > std::numeric_limits<uint64_t>::max() / 10) {
            return 0;
        }
        value *= 10;
    }
    return value;
}

}  // namespace

TimestampScale TimestampScale::fromTsresol(uint8_t tsresol, int64_t offsetSeconds) {
    TimestampScale scale;
    scale.offsetSeconds_ = offsetSeconds;
    const int exponent = tsresol & 0x7f;
    if ((tsresol & 0x80) != 0) {
        scale.kind_ = Kind::Shift;
        scale.shift_ = static_cast<uint8_t>(exponent);
    } else if (exponent <= kNsDigits) {
        scale.kind_ = Kind::Multiply;
        scale.factor_ = powerOfTen(kNsDigits - exponent);
    } else {
        // Finer than a nanosecond: divide. Beyond 10^-28 s every 64-bit count is below 1 ns.
        scale.kind_ = Kind::Divide;
        scale.factor_ = powerOfTen(exponent - kNsDigits);
    }
    return scale;
}

EpochTime TimestampScale::toEpochTime(uint64_t units) const { return EpochTime::fromWideNs(toEpochNs(units)); }

WideNs TimestampScale::toEpochNs(uint64_t units) const {
    Int128 ns = 0;
    switch (kind_) {
    case Kind::Multiply:
        ns = static_cast<Int128>(Uint128{units} * factor_);
        break;
    case Kind::Divide:
        ns = factor_ == 0 ? 0 : static_cast<Int128>(units / factor_);
        break;
    case Kind::Shift:
        ns = static_cast<Int128>((Uint128{units} * kNsPerSecond) >> shift_);
        break;
    }
    return ns + Int128{offsetSeconds_} * static_cast<Int128>(kNsPerSecond);
}

}  // namespace tcpscope
