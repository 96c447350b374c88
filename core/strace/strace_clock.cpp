#include "strace/strace_clock.hpp"

#include "strace/text_scan.hpp"

namespace tcpscope {
namespace {

using strace_text::isDigit;

constexpr int64_t kNsPerSecond = 1'000'000'000;
constexpr int64_t kNsPerDay = 86'400 * kNsPerSecond;
constexpr int64_t kHalfDayNs = kNsPerDay / 2;
// Seconds above this do not fit in int64 nanoseconds (year 2255); such a token is not a stamp.
constexpr int64_t kMaxSeconds = 9'000'000'000;

/// Reads "digits" at `position`; returns the count (at most `maxDigits`, 0 if none).
size_t readDigits(std::string_view text, size_t position, size_t maxDigits, int64_t& value) {
    size_t count = 0;
    value = 0;
    while (position + count < text.size() && isDigit(text[position + count])) {
        if (count == maxDigits) {
            return 0;
        }
        value = value * 10 + (text[position + count] - '0');
        ++count;
    }
    return count;
}

/// ".frac" at `position` into nanoseconds; false if malformed. No dot means no fraction.
bool readFraction(std::string_view text, size_t position, StraceStamp& stamp) {
    if (position == text.size()) {
        stamp.fractionDigits = 0;
        return true;
    }
    if (text[position] != '.') {
        return false;
    }
    int64_t fraction = 0;
    const size_t digits = readDigits(text, position + 1, 9, fraction);
    if (digits == 0 || position + 1 + digits != text.size()) {
        return false;
    }
    for (size_t scale = digits; scale < 9; ++scale) {
        fraction *= 10;
    }
    stamp.fractionDigits = static_cast<uint8_t>(digits);
    stamp.ns += fraction;
    return true;
}

}  // namespace

bool parseStraceStamp(std::string_view token, StraceStamp& stamp) {
    stamp = StraceStamp{};
    if (token.size() >= 8 && token[2] == ':' && token[5] == ':') {
        int64_t hours = 0;
        int64_t minutes = 0;
        int64_t seconds = 0;
        if (readDigits(token, 0, 2, hours) != 2 || readDigits(token, 3, 2, minutes) != 2 ||
            readDigits(token, 6, 2, seconds) != 2 || hours > 23 || minutes > 59 || seconds > 60) {
            return false;
        }
        stamp.shape = StampShape::TimeOfDay;
        stamp.ns = ((hours * 60 + minutes) * 60 + seconds) * kNsPerSecond;
        return readFraction(token, 8, stamp);
    }
    int64_t seconds = 0;
    const size_t digits = readDigits(token, 0, 10, seconds);
    if (digits == 0 || seconds > kMaxSeconds) {
        return false;
    }
    stamp.shape = StampShape::Seconds;
    stamp.ns = seconds * kNsPerSecond;
    return readFraction(token, digits, stamp);
}

bool StraceClock::place(const StraceStamp& stamp, int64_t& tsNs, uint16_t& dayWraps) {
    if (stamp.shape == StampShape::None) {
        return false;
    }
    if (!started_) {
        started_ = true;
        fractionDigits_ = stamp.fractionDigits;
        if (base_ == StraceTimeBase::None) {
            if (stamp.shape == StampShape::TimeOfDay) {
                base_ = StraceTimeBase::TimeOfDay;
            } else {
                base_ = stamp.ns < kEpochThresholdNs ? StraceTimeBase::Relative : StraceTimeBase::Epoch;
            }
        }
    }
    const bool timeOfDay = base_ == StraceTimeBase::TimeOfDay;
    if (timeOfDay != (stamp.shape == StampShape::TimeOfDay) || base_ == StraceTimeBase::None) {
        return false;
    }
    switch (base_) {
        case StraceTimeBase::TimeOfDay: {
            // Lines of several processes may step back a little; half a day back is midnight, and
            // half a day forward right after midnight is a late line from the day before.
            uint16_t day = dayWraps_;
            if (placed_ && stamp.ns + kHalfDayNs < lastTimeOfDayNs_ && dayWraps_ < UINT16_MAX) {
                day = ++dayWraps_;
                lastTimeOfDayNs_ = stamp.ns;
            } else if (placed_ && stamp.ns > lastTimeOfDayNs_ + kHalfDayNs && dayWraps_ > 0) {
                day = dayWraps_ - 1;
            } else {
                lastTimeOfDayNs_ = stamp.ns;
            }
            lastNs_ = day * kNsPerDay + stamp.ns;
            placed_ = true;
            tsNs = lastNs_;
            dayWraps = day;
            return true;
        }
        case StraceTimeBase::Epoch: lastNs_ = stamp.ns; break;
        case StraceTimeBase::Relative:
            // Each delta is from the previous line of any process, so the sum runs in file order.
            if (relativeSumNs_ <= INT64_MAX - stamp.ns) {
                relativeSumNs_ += stamp.ns;
            }
            lastNs_ = relativeSumNs_;
            break;
        case StraceTimeBase::None: return false;
    }
    placed_ = true;
    tsNs = lastNs_;
    dayWraps = dayWraps_;
    return true;
}

}  // namespace tcpscope
