// The min/max-per-pixel-column reduction on synthetic series: what a chart receives is bounded by
// the columns, keeps every extreme, runs on past the edges, and is the series itself when the
// view is zoomed in far enough.
#include "series/min_max_downsampler.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

using namespace tcpscope;

namespace {

std::vector<ChartPoint> sine(size_t count, double seconds) {
    std::vector<ChartPoint> points(count);
    for (size_t i = 0; i < count; ++i) {
        const double x = seconds * static_cast<double>(i) / static_cast<double>(count);
        points[i] = {x, std::sin(x * 7) * 1000 + static_cast<double>(i % 13)};
    }
    return points;
}

}  // namespace

TEST_CASE("a million points over 800 columns become at most two per column, extremes kept") {
    std::vector<ChartPoint> points = sine(1'000'000, 100);
    points[123'457].y = 5'000;   // a spike
    points[876'543].y = -5'000;  // and a dip, each one point wide
    const std::vector<ChartPoint> kept = downsampleMinMax(points, 0, 100, 800);
    CHECK(kept.size() <= 2 * 800);
    CHECK(kept.size() >= 800);  // every column has points: each keeps at least one
    CHECK(std::is_sorted(kept.begin(), kept.end(), [](auto& a, auto& b) { return a.x < b.x; }));
    const auto [lowest, highest] =
        std::minmax_element(kept.begin(), kept.end(), [](auto& a, auto& b) { return a.y < b.y; });
    CHECK(highest->y == 5'000);
    CHECK(highest->x == points[123'457].x);
    CHECK(lowest->y == -5'000);
    CHECK(lowest->x == points[876'543].x);
    // Every kept point is a real point of the series, not an average.
    for (const ChartPoint& point : kept) {
        const auto found = std::lower_bound(points.begin(), points.end(), point.x,
                                            [](const ChartPoint& p, double x) { return p.x < x; });
        REQUIRE(found != points.end());
        CHECK(*found == point);
    }
}

TEST_CASE("each column keeps its own minimum and maximum") {
    // 10 columns over [0, 10), 100 points per column with a known low and high in each.
    std::vector<ChartPoint> points;
    for (int column = 0; column < 10; ++column) {
        for (int i = 0; i < 100; ++i) {
            const double y = (i == 30 + column) ? -column - 1.0 : (i == 70 - column) ? 100.0 + column : 0.0;
            points.push_back({column + i / 100.0, y});
        }
    }
    const std::vector<ChartPoint> kept = downsampleMinMax(points, 0, 10, 10);
    REQUIRE(kept.size() == 20);
    for (int column = 0; column < 10; ++column) {
        CHECK(kept[2 * column] == ChartPoint{column + (30 + column) / 100.0, -column - 1.0});  // the low comes first
        CHECK(kept[2 * column + 1] == ChartPoint{column + (70 - column) / 100.0, 100.0 + column});
    }
}

TEST_CASE("a zoomed range keeps its neighbours outside so lines reach the edges") {
    const std::vector<ChartPoint> points = sine(1'000'000, 100);
    // 0.0009 s of a series with a point every 0.0001 s: 9 points, far fewer than the columns.
    const std::vector<ChartPoint> kept = downsampleMinMax(points, 50.00005, 50.00095, 800);
    const auto first =
        std::lower_bound(points.begin(), points.end(), 50.00005, [](const ChartPoint& p, double x) { return p.x < x; });
    REQUIRE(kept.size() >= 3);
    CHECK(kept.front() == *(first - 1));  // the point before the range
    CHECK(kept.front().x < 50.00005);
    CHECK(kept.back().x > 50.00095);  // the point after it
    // Inside the range: the real points, every one of them.
    const std::vector<ChartPoint> inside(kept.begin() + 1, kept.end() - 1);
    CHECK(inside == std::vector<ChartPoint>(first, first + static_cast<std::ptrdiff_t>(inside.size())));
    CHECK(inside.size() == 9);
}

TEST_CASE("degenerate inputs give nothing or what there is") {
    const std::vector<ChartPoint> none;
    CHECK(downsampleMinMax(none, 0, 1, 100).empty());
    const std::vector<ChartPoint> one{{0.5, 3}};
    CHECK(downsampleMinMax(one, 0, 1, 100) == one);
    CHECK(downsampleMinMax(one, 0, 1, 0).empty());
    CHECK(downsampleMinMax(one, 1, 1, 100).empty());  // an empty range
    CHECK(downsampleMinMax(one, 2, 1, 100).empty());  // a reversed one
    // A range beside the data keeps only the neighbour, so a line still crosses the view.
    CHECK(downsampleMinMax(one, 2, 3, 100) == one);
    // Points on the same x in one column: the lowest and highest, once each.
    const std::vector<ChartPoint> stacked{{1, 5}, {1, 2}, {1, 9}, {1, 5}};
    CHECK(downsampleMinMax(stacked, 0, 2, 4) == std::vector<ChartPoint>{{1, 2}, {1, 9}});
    // NaN-free but huge values survive unchanged.
    const std::vector<ChartPoint> huge{{0, 1e300}, {0.5, -1e300}};
    CHECK(downsampleMinMax(huge, 0, 1, 1) == huge);
}
