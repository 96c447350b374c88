#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tcpscope::ui {

/// A half-open span of capture time [startNs, endNs).
struct TimeRange {
    int64_t startNs = 0;
    int64_t endNs = 0;

    [[nodiscard]] int64_t lengthNs() const { return endNs - startNs; }
    [[nodiscard]] bool empty() const { return endNs <= startNs; }
    bool operator==(const TimeRange&) const = default;
};

/// Maps capture time to horizontal pixels and back: x = leftPx + (tsNs - startNs) / nsPerPx.
/// Times are kept relative to an integer origin (the capture start) so that doubles stay exact
/// to the nanosecond over months of capture.
class TimeAxis {
public:
    /// The finest zoom: one nanosecond per pixel (captures carry at most nanosecond stamps).
    static constexpr double kMinNsPerPx = 1.0;

    TimeAxis() = default;
    TimeAxis(int64_t originNs, double startOffsetNs, double nsPerPx, double leftPx);
    /// Shows `range` across `widthPx` pixels starting at `leftPx`.
    static TimeAxis fit(TimeRange range, double leftPx, double widthPx);

    [[nodiscard]] double toX(int64_t tsNs) const {
        return leftPx_ + (static_cast<double>(tsNs - originNs_) - startOffsetNs_) / nsPerPx_;
    }
    /// The time under pixel `x`, rounded to the nearest nanosecond.
    [[nodiscard]] int64_t toNs(double x) const;
    [[nodiscard]] int64_t startNs() const { return toNs(leftPx_); }
    [[nodiscard]] double nsPerPx() const { return nsPerPx_; }
    [[nodiscard]] double leftPx() const { return leftPx_; }
    [[nodiscard]] int64_t originNs() const { return originNs_; }
    /// The time shown between leftPx and leftPx + widthPx.
    [[nodiscard]] TimeRange visible(double widthPx) const;

    /// Zooms in by `factor` (> 1 in, < 1 out) keeping the time under `x` at `x`. The scale stays
    /// between kMinNsPerPx and `maxNsPerPx`.
    [[nodiscard]] TimeAxis zoomedAbout(double x, double factor, double maxNsPerPx = 1e18) const;
    /// Moves the view by `dxPx` pixels (positive: later times come into view).
    [[nodiscard]] TimeAxis panned(double dxPx) const;
    /// The same scale over a different left edge (for a target with another left margin).
    [[nodiscard]] TimeAxis withLeft(double leftPx) const;
    /// Keeps at least part of `bounds` in a view `widthPx` wide: the view may not start after
    /// the end of `bounds` nor end before its start.
    [[nodiscard]] TimeAxis clampedTo(TimeRange bounds, double widthPx) const;

private:
    int64_t originNs_ = 0;
    double startOffsetNs_ = 0;  // view start relative to the origin
    double nsPerPx_ = 1e6;
    double leftPx_ = 0;
};

/// A "nice" tick step (1, 2 or 5 times a power of ten nanoseconds) of at least `minStepNs`.
int64_t niceStepNs(double minStepNs);

/// Wall-clock time in UTC, with as many decimals as `stepNs` needs: "03:28:53", "03:28:53.25",
/// "03:28:53.250125".
std::string formatClockUtc(int64_t tsNs, int64_t stepNs);
/// The UTC date of `tsNs`: "2026-11-21".
std::string formatDateUtc(int64_t tsNs);
/// Time since the capture start with as many decimals as `stepNs` needs: "0 s", "1.25 s", "0.000250 s".
std::string formatRelative(int64_t offsetNs, int64_t stepNs);
/// A duration for people: "850 ns", "12.5 µs", "46.4 ms", "1.73 s", "2 min 5 s".
std::string formatDuration(int64_t durationNs);

/// One labelled position of the time ruler.
struct RulerTick {
    int64_t tsNs = 0;
    double x = 0;
    std::string label;
};

/// The ticks of one ruler row.
struct RulerTicks {
    int64_t stepNs = 0;
    std::vector<RulerTick> ticks;
};

/// Picks a step whose labels (measured by `textWidth`) do not touch, then labels every step in
/// [leftPx, leftPx + widthPx]. `absolute`: wall-clock labels on clock-aligned steps; otherwise
/// seconds since `captureStartNs` on steps aligned to the capture start.
RulerTicks rulerTicks(const TimeAxis& axis, double widthPx, int64_t captureStartNs, bool absolute,
                      const std::function<double(const std::string&)>& textWidth);

}  // namespace tcpscope::ui
