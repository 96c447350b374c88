#include "timeline/timeline_axis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace tcpscope::ui {

namespace {
constexpr int64_t kNsPerUs = 1'000;
constexpr int64_t kNsPerMs = 1'000'000;
constexpr int64_t kNsPerS = 1'000'000'000;
constexpr int64_t kNsPerMin = 60 * kNsPerS;
constexpr int64_t kNsPerHour = 60 * kNsPerMin;
constexpr int64_t kNsPerDay = 24 * kNsPerHour;

int64_t floorDiv(int64_t value, int64_t divisor) {
    const int64_t quotient = value / divisor;
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient;
}

// Decimals of a second that a step of `stepNs` needs to tell its ticks apart.
int secondDecimals(int64_t stepNs) {
    int decimals = 0;
    for (int64_t unit = kNsPerS; unit > stepNs && decimals < 9; unit /= 10) {
        ++decimals;
    }
    return decimals;
}

// "12", "12.5" or "12.500125": the fraction `ns` (< 1 s) with `decimals` digits.
std::string fraction(int64_t ns, int decimals) {
    if (decimals == 0) {
        return {};
    }
    // One fmt call: GCC 12 at -O3 warns (falsely, -Wrestrict) on "." + std::string.
    const std::string digits = fmt::format("{:09d}", ns);
    return fmt::format(".{}", std::string_view(digits).substr(0, static_cast<size_t>(decimals)));
}

std::string threeDigits(double value, const char* unit) {
    if (value < 10) {
        return fmt::format("{:.2f} {}", value, unit);
    }
    if (value < 100) {
        return fmt::format("{:.1f} {}", value, unit);
    }
    return fmt::format("{:.0f} {}", value, unit);
}
}  // namespace

TimeAxis::TimeAxis(int64_t originNs, double startOffsetNs, double nsPerPx, double leftPx)
    : originNs_(originNs), startOffsetNs_(startOffsetNs), nsPerPx_(std::max(nsPerPx, kMinNsPerPx)), leftPx_(leftPx) {}

TimeAxis TimeAxis::fit(TimeRange range, double leftPx, double widthPx) {
    const double length = static_cast<double>(std::max<int64_t>(range.lengthNs(), 1));
    return {range.startNs, 0.0, length / std::max(widthPx, 1.0), leftPx};
}

int64_t TimeAxis::toNs(double x) const {
    return originNs_ + std::llround(startOffsetNs_ + (x - leftPx_) * nsPerPx_);
}

TimeRange TimeAxis::visible(double widthPx) const {
    return {toNs(leftPx_), toNs(leftPx_ + widthPx)};
}

TimeAxis TimeAxis::zoomedAbout(double x, double factor, double maxNsPerPx) const {
    if (!(factor > 0)) {
        return *this;
    }
    const double anchorOffsetNs = startOffsetNs_ + (x - leftPx_) * nsPerPx_;
    const double nsPerPx = std::clamp(nsPerPx_ / factor, kMinNsPerPx, std::max(maxNsPerPx, kMinNsPerPx));
    return {originNs_, anchorOffsetNs - (x - leftPx_) * nsPerPx, nsPerPx, leftPx_};
}

TimeAxis TimeAxis::panned(double dxPx) const {
    return {originNs_, startOffsetNs_ + dxPx * nsPerPx_, nsPerPx_, leftPx_};
}

TimeAxis TimeAxis::withLeft(double leftPx) const {
    return {originNs_, startOffsetNs_, nsPerPx_, leftPx};
}

TimeAxis TimeAxis::clampedTo(TimeRange bounds, double widthPx) const {
    const double viewNs = std::max(widthPx, 1.0) * nsPerPx_;
    const auto boundsStart = static_cast<double>(bounds.startNs - originNs_);
    const auto boundsEnd = static_cast<double>(bounds.endNs - originNs_);
    double low = 0;
    double high = 0;
    if (viewNs >= boundsEnd - boundsStart) {
        // Zoomed out past the whole range: keep all of it in view.
        low = boundsEnd - viewNs;
        high = boundsStart;
    } else {
        // Keep a tenth of the view on the range, so the user never loses it.
        low = boundsStart - 0.9 * viewNs;
        high = boundsEnd - 0.1 * viewNs;
    }
    return {originNs_, std::clamp(startOffsetNs_, low, high), nsPerPx_, leftPx_};
}

int64_t niceStepNs(double minStepNs) {
    if (!(minStepNs > 1)) {
        return 1;
    }
    if (minStepNs < static_cast<double>(kNsPerS)) {
        for (int64_t power = 1;; power *= 10) {
            for (const int64_t multiple : {1, 2, 5}) {
                if (static_cast<double>(power * multiple) >= minStepNs) {
                    return power * multiple;
                }
            }
        }
    }
    // Above a second, steps that a clock shows well: 15 s, 30 s, 1 min, ... 12 h, 1 day.
    static constexpr std::array<int64_t, 18> kClockSteps = {
        kNsPerS,    2 * kNsPerS,    5 * kNsPerS,    10 * kNsPerS,   15 * kNsPerS,    30 * kNsPerS,
        kNsPerMin,  2 * kNsPerMin,  5 * kNsPerMin,  10 * kNsPerMin, 15 * kNsPerMin,  30 * kNsPerMin,
        kNsPerHour, 2 * kNsPerHour, 3 * kNsPerHour, 6 * kNsPerHour, 12 * kNsPerHour, kNsPerDay};
    for (const int64_t step : kClockSteps) {
        if (static_cast<double>(step) >= minStepNs) {
            return step;
        }
    }
    int64_t days = 1;
    while (static_cast<double>(days * kNsPerDay) < minStepNs && days < (INT64_MAX / kNsPerDay) / 10) {
        days = days == 1 ? 2 : (days == 2 ? 5 : days * 2);
    }
    return days * kNsPerDay;
}

std::string formatDateUtc(int64_t tsNs) {
    using namespace std::chrono;
    const sys_days day{days{floorDiv(tsNs, kNsPerDay)}};
    const year_month_day date{day};
    return fmt::format("{:04d}-{:02d}-{:02d}", static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                       static_cast<unsigned>(date.day()));
}

std::string formatClockUtc(int64_t tsNs, int64_t stepNs) {
    if (stepNs >= kNsPerDay) {
        return formatDateUtc(tsNs);
    }
    const int64_t nsOfDay = tsNs - floorDiv(tsNs, kNsPerDay) * kNsPerDay;
    const int64_t hours = nsOfDay / kNsPerHour;
    const int64_t minutes = (nsOfDay / kNsPerMin) % 60;
    if (stepNs >= kNsPerMin) {
        return fmt::format("{:02d}:{:02d}", hours, minutes);
    }
    const int64_t seconds = (nsOfDay / kNsPerS) % 60;
    return fmt::format("{:02d}:{:02d}:{:02d}{}", hours, minutes, seconds,
                       fraction(nsOfDay % kNsPerS, secondDecimals(stepNs)));
}

std::string formatRelative(int64_t offsetNs, int64_t stepNs) {
    const char* sign = offsetNs < 0 ? "-" : "";
    const uint64_t magnitude = offsetNs < 0 ? 0 - static_cast<uint64_t>(offsetNs) : static_cast<uint64_t>(offsetNs);
    const auto wholeSeconds = static_cast<int64_t>(magnitude / kNsPerS);
    if (stepNs >= kNsPerMin) {
        const int64_t hours = wholeSeconds / 3600;
        const int64_t minutes = (wholeSeconds / 60) % 60;
        return hours > 0 ? fmt::format("{}{} h {:02d} min", sign, hours, minutes)
                         : fmt::format("{}{} min", sign, minutes);
    }
    return fmt::format("{}{}{} s", sign, wholeSeconds,
                       fraction(static_cast<int64_t>(magnitude % kNsPerS), secondDecimals(stepNs)));
}

std::string formatDuration(int64_t durationNs) {
    const auto ns = static_cast<double>(std::llabs(durationNs));
    const char* sign = durationNs < 0 ? "-" : "";
    if (ns < kNsPerUs) {
        return fmt::format("{}{:.0f} ns", sign, ns);
    }
    if (ns < kNsPerMs) {
        return fmt::format("{}{}", sign, threeDigits(ns / kNsPerUs, "µs"));
    }
    if (ns < 10 * kNsPerS) {
        return fmt::format("{}{:.1f} ms", sign, ns / kNsPerMs);
    }
    if (ns < 2 * kNsPerMin) {
        return fmt::format("{}{:.1f} s", sign, ns / kNsPerS);
    }
    const auto totalSeconds = static_cast<int64_t>(ns / kNsPerS);
    if (totalSeconds < 3600) {
        return fmt::format("{}{} min {} s", sign, totalSeconds / 60, totalSeconds % 60);
    }
    return fmt::format("{}{} h {} min", sign, totalSeconds / 3600, (totalSeconds / 60) % 60);
}

RulerTicks rulerTicks(const TimeAxis& axis, double widthPx, int64_t captureStartNs, bool absolute,
                      const std::function<double(const std::string&)>& textWidth) {
    RulerTicks result;
    if (widthPx <= 0) {
        return result;
    }
    const TimeRange shown = axis.visible(widthPx);
    const auto label = [&](int64_t tsNs, int64_t stepNs) {
        return absolute ? formatClockUtc(tsNs, stepNs) : formatRelative(tsNs - captureStartNs, stepNs);
    };
    // A label's width depends on the decimals the step needs: widen the step until the widest
    // label of the row fits with a gap.
    constexpr double kGapPx = 28;
    double minStepNs = 60 * axis.nsPerPx();
    int64_t stepNs = niceStepNs(minStepNs);
    for (int attempt = 0; attempt < 8; ++attempt) {
        const double widest =
            std::max(textWidth(label(shown.startNs, stepNs)), textWidth(label(shown.endNs, stepNs))) + kGapPx;
        if (static_cast<double>(stepNs) >= widest * axis.nsPerPx()) {
            break;
        }
        minStepNs = std::max(minStepNs * 1.01, widest * axis.nsPerPx());
        stepNs = niceStepNs(minStepNs);
    }
    result.stepNs = stepNs;
    // Clock ticks fall on round wall-clock values; relative ticks on round offsets from the start.
    const int64_t anchorNs = absolute ? 0 : captureStartNs;
    int64_t tsNs = anchorNs + floorDiv(shown.startNs - anchorNs, stepNs) * stepNs;
    for (; tsNs <= shown.endNs; tsNs += stepNs) {
        const double x = axis.toX(tsNs);
        if (x >= axis.leftPx() - 0.5 && x <= axis.leftPx() + widthPx + 0.5) {
            result.ticks.push_back({tsNs, x, label(tsNs, stepNs)});
        }
        if (result.ticks.size() > 4096) {
            break;  // only a broken text measure could ask for this many
        }
    }
    return result;
}

}  // namespace tcpscope::ui
