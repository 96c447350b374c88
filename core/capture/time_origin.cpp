#include "capture/time_origin.hpp"

#include <limits>

namespace tcpscope {

namespace {

__extension__ typedef __int128 Int128;  // NOLINT: the 128-bit type has no standard name

constexpr int64_t kNsPerSecond = 1'000'000'000;
// Captures whose first packet is within 2^62 ns (146 years) of the epoch keep the epoch as their
// origin: their packets fit in int64 nanoseconds for another 146 years.
constexpr int64_t kEpochReachSeconds = (int64_t{1} << 62) / kNsPerSecond;
constexpr int kEraBits = 32;

std::optional<int64_t> toInt64(Int128 value) {
    if (value > std::numeric_limits<int64_t>::max() || value < std::numeric_limits<int64_t>::min()) {
        return std::nullopt;
    }
    return static_cast<int64_t>(value);
}

}  // namespace

EpochTime EpochTime::fromNs(int64_t epochNs) {
    int64_t seconds = epochNs / kNsPerSecond;
    int64_t fraction = epochNs % kNsPerSecond;
    if (fraction < 0) {
        fraction += kNsPerSecond;
        --seconds;
    }
    return EpochTime{seconds, static_cast<uint32_t>(fraction)};
}

EpochTime EpochTime::fromWideNs(WideNs epochNs) {
    Int128 seconds = epochNs / kNsPerSecond;
    Int128 fraction = epochNs % kNsPerSecond;
    if (fraction < 0) {
        fraction += kNsPerSecond;
        --seconds;
    }
    constexpr auto kMax = std::numeric_limits<int64_t>::max();
    constexpr auto kMin = std::numeric_limits<int64_t>::min();
    if (seconds > kMax) {
        return EpochTime{kMax, static_cast<uint32_t>(kNsPerSecond - 1)};
    }
    if (seconds < kMin) {
        return EpochTime{kMin, 0};
    }
    return EpochTime{static_cast<int64_t>(seconds), static_cast<uint32_t>(fraction)};
}

TimeOrigin TimeOrigin::forFirstPacket(EpochTime first) {
    if (first.seconds > -kEpochReachSeconds && first.seconds < kEpochReachSeconds) {
        return TimeOrigin{};
    }
    // The start of its era, rounded down (an arithmetic shift floors negative seconds too).
    return TimeOrigin{static_cast<int64_t>(static_cast<uint64_t>(first.seconds >> kEraBits) << kEraBits)};
}

std::optional<int64_t> TimeOrigin::relativeNs(EpochTime time) const {
    return toInt64((Int128{time.seconds} - epochSeconds) * kNsPerSecond + time.nanoseconds);
}

std::optional<int64_t> TimeOrigin::relativeNs(WideNs epochNs) const {
    return toInt64(epochNs - Int128{epochSeconds} * kNsPerSecond);
}

EpochTime TimeOrigin::absolute(int64_t tsNs) const {
    EpochTime time = EpochTime::fromNs(tsNs);
    if (__builtin_add_overflow(time.seconds, epochSeconds, &time.seconds)) {
        // Only past 292 billion years, where a file's count of seconds already ran past int64.
        time = epochSeconds > 0 ? EpochTime{std::numeric_limits<int64_t>::max(), 999'999'999}
                                : EpochTime{std::numeric_limits<int64_t>::min(), 0};
    }
    return time;
}

int64_t TimeOrigin::epochNs(int64_t tsNs) const {
    if (isEpoch()) {
        return tsNs;
    }
    return shiftedNs(tsNs,
                     TimeOrigin{}.shiftFromNs(*this).value_or(epochSeconds > 0 ? std::numeric_limits<int64_t>::max()
                                                                               : std::numeric_limits<int64_t>::min()));
}

std::optional<int64_t> TimeOrigin::shiftFromNs(TimeOrigin other) const {
    return toInt64((Int128{other.epochSeconds} - epochSeconds) * kNsPerSecond);
}

int64_t shiftedNs(int64_t tsNs, int64_t shiftNs) {
    int64_t sum = 0;
    if (__builtin_add_overflow(tsNs, shiftNs, &sum)) {
        return shiftNs > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    }
    return sum;
}

}  // namespace tcpscope
