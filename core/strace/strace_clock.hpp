#pragma once
#include <cstdint>
#include <string_view>

#include "strace/strace_format.hpp"

namespace tcpscope {

/// The shape of a timestamp token: "03:24:38.427134" or "1795231484.158649" / "0.000349".
enum class StampShape : uint8_t { None, TimeOfDay, Seconds };

/// One timestamp as printed, before the log's clock gives it meaning.
struct StraceStamp {
    StampShape shape = StampShape::None;
    uint8_t fractionDigits = 0;
    int64_t ns = 0;  ///< TimeOfDay: since midnight; Seconds: the printed seconds in ns
};

/// Parses a whole token ("HH:MM:SS", "HH:MM:SS.frac", "S.frac", "S"); false if it is not one.
bool parseStraceStamp(std::string_view token, StraceStamp& stamp);

/// Turns a log's stamps, in file order, into times on one axis: counts midnights for time-of-day
/// logs (a step back of more than 12 hours is a new day) and sums -r deltas.
class StraceClock {
public:
    /// Seconds below this (about 3 years) are -r deltas, not -ttt epoch times.
    static constexpr int64_t kEpochThresholdNs = int64_t{100'000'000} * 1'000'000'000;

    /// `forced` fixes the time base (None: decided by the first stamp).
    explicit StraceClock(StraceTimeBase forced = StraceTimeBase::None) : base_(forced) {}

    /// The time of `stamp` on the log's axis; false if its shape does not fit the log's base.
    bool place(const StraceStamp& stamp, int64_t& tsNs, uint16_t& dayWraps);
    /// The base decided so far.
    [[nodiscard]] StraceTimeBase base() const { return base_; }
    /// The fraction digits of the first stamp.
    [[nodiscard]] uint8_t fractionDigits() const { return fractionDigits_; }
    /// The last time placed (0 before the first).
    [[nodiscard]] int64_t lastNs() const { return lastNs_; }
    /// The midnights counted so far.
    [[nodiscard]] uint16_t dayWraps() const { return dayWraps_; }

private:
    StraceTimeBase base_;
    bool started_ = false;
    bool placed_ = false;
    uint8_t fractionDigits_ = 0;
    uint16_t dayWraps_ = 0;
    int64_t lastTimeOfDayNs_ = 0;
    int64_t relativeSumNs_ = 0;
    int64_t lastNs_ = 0;
};

}  // namespace tcpscope
