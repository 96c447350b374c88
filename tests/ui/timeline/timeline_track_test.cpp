// Level of detail of a timeline row: summaries per zoom, folding of marks closer than 3 px.
#include "timeline/timeline_track.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

using namespace tcpscope::ui;

namespace {
constexpr int64_t kStartNs = 1'700'000'000'000'000'000;
constexpr int64_t kSpacingNs = 10'000;  // a mark every 10 µs
constexpr size_t kMillion = 1'000'000;

MarkTrack millionMarks() {
    static const std::unique_ptr<MarkStore> store = [] {
        MarkStoreBuilder builder(1);
        builder.reserve(kMillion);
        for (size_t i = 0; i < kMillion; ++i) {
            const uint16_t style = i == 500'000 ? markstyle::kRetransmission : markstyle::kPayload;
            builder.append(0, kStartNs + static_cast<int64_t>(i) * kSpacingNs, static_cast<uint32_t>(i), style);
        }
        return builder.finish();
    }();
    return store->track(0);
}

uint64_t totalCount(const std::vector<FoldedMark>& marks) {
    return std::accumulate(marks.begin(), marks.end(), uint64_t{0},
                           [](uint64_t sum, const FoldedMark& mark) { return sum + mark.count; });
}
}  // namespace

TEST_CASE("summaries never hold more entries than the marks", "[timeline][lod]") {
    const MarkTrack track = millionMarks();
    CHECK(track.size() == kMillion);
    CHECK(track.summaryEntries() <= track.size());
    CHECK_FALSE(track.levelShifts().empty());
}

TEST_CASE("a million marks at full zoom-out fold to at most a third of the width", "[timeline][lod]") {
    const MarkTrack track = millionMarks();
    const double widthPx = 1000;
    const TimeAxis axis = TimeAxis::fit({kStartNs, kStartNs + static_cast<int64_t>(kMillion) * kSpacingNs}, 0, widthPx);
    std::vector<FoldedMark> folded;
    const FoldStats stats = track.fold(axis, 0, widthPx, 3, folded);
    CHECK(folded.size() <= static_cast<size_t>(widthPx / 3) + 1);
    CHECK(totalCount(folded) == kMillion);
    // The frame reads a summary, not the million marks: a few entries per pixel column.
    CHECK(stats.levelShift >= MarkStore::kFirstShift);
    CHECK(stats.entriesVisited <= static_cast<size_t>(4 * widthPx) + 4);
    // Each fold starts at least 3 px after the previous one: no two draws on one pixel.
    for (size_t i = 1; i < folded.size(); ++i) {
        CHECK(folded[i].x >= folded[i - 1].x + 3);
    }
    // The one retransmission is not lost in the fold.
    const auto flagged = std::count_if(folded.begin(), folded.end(), [](const FoldedMark& mark) {
        return (mark.style & markstyle::kRetransmission) != 0;
    });
    CHECK(flagged == 1);
}

TEST_CASE("zoomed in, single marks come back with their exact x and packet", "[timeline][lod]") {
    const MarkTrack track = millionMarks();
    // 100 ns per pixel: marks 100 px apart.
    const int64_t viewStart = kStartNs + 123'456 * kSpacingNs - 5'000;
    const TimeAxis axis(viewStart, 0, 100, 50);
    std::vector<FoldedMark> folded;
    const FoldStats stats = track.fold(axis, 50, 1050, 3, folded);
    CHECK(stats.levelShift == -1);
    REQUIRE(folded.size() == 10);
    for (size_t i = 0; i < folded.size(); ++i) {
        const FoldedMark& mark = folded[i];
        CHECK(mark.count == 1);
        CHECK(mark.item == 123'456 + i);
        CHECK(mark.firstTsNs == kStartNs + static_cast<int64_t>(mark.item) * kSpacingNs);
        CHECK(mark.x == Approx(axis.toX(mark.firstTsNs)));
        CHECK(mark.x == Approx(50 + 50 + 100.0 * static_cast<double>(i)));
    }
}

TEST_CASE("at every zoom the folds count each visible mark once", "[timeline][lod]") {
    const MarkTrack track = millionMarks();
    for (const double nsPerPx : {30.0, 3'000.0, 40'000.0, 2e6, 9e6}) {
        const int64_t viewStart = kStartNs + 2'500'000'000;
        const TimeAxis axis(viewStart, 0, nsPerPx, 0);
        const TimeRange shown = axis.visible(800);
        std::vector<FoldedMark> folded;
        track.fold(axis, 0, 800, 3, folded);
        const int64_t firstMark = (std::max(shown.startNs, kStartNs) - kStartNs + kSpacingNs - 1) / kSpacingNs;
        const int64_t lastMark = std::min<int64_t>((shown.endNs - kStartNs) / kSpacingNs, kMillion - 1);
        INFO("ns per px " << nsPerPx);
        // Summaries start buckets at their first mark, so a bucket can lose a fraction of a pixel
        // at the edges; the count is exact to one bucket.
        const auto expected = static_cast<double>(lastMark - firstMark + 1);
        CHECK(static_cast<double>(totalCount(folded)) == Approx(expected).epsilon(0.01).margin(2));
        CHECK(folded.size() <= 800 / 3 + 1);
    }
}

TEST_CASE("marks added out of order are sorted, equal times keep their order", "[timeline][lod]") {
    MarkStoreBuilder builder(1);
    builder.append(0, 300, 3, 0);
    builder.append(0, 100, 1, 0);
    builder.append(0, 200, 2, 0);
    builder.append(0, 200, 4, 0);
    const auto store = builder.finish();
    const MarkTrack track = store->track(0);
    REQUIRE(track.size() == 4);
    CHECK(track.tsNs(0) == 100);
    CHECK(track.item(1) == 2);
    CHECK(track.item(2) == 4);
    CHECK(track.item(3) == 3);
}

TEST_CASE("marks with a duration that began before the view still show", "[timeline][lod]") {
    MarkStoreBuilder builder(1);
    builder.append(0, 0, 0, 0, 1'000'000);  // a long epoll_wait
    for (uint32_t i = 1; i < 1000; ++i) {
        builder.append(0, static_cast<int64_t>(i) * 100, i, 0);  // short ones inside it
    }
    builder.append(0, 2'000'000, 1000, 0);
    const auto store = builder.finish();
    const MarkTrack track = store->track(0);
    const TimeAxis axis(500'000, 0, 100, 0);  // from 0.5 ms, 100 ns per px
    std::vector<FoldedMark> folded;
    track.fold(axis, 0, 1000, 3, folded);
    REQUIRE_FALSE(folded.empty());
    CHECK(folded.front().item == 0);
    CHECK(folded.front().x == Approx(0));
    CHECK(folded.front().x2 == Approx(1000));  // clipped to the view
}

TEST_CASE("marks of many tracks arriving interleaved are stored per track, in time order", "[timeline][lod]") {
    // Three tracks fed round-robin, as packets of concurrent connections arrive; track 1 steps
    // back in time once (merged captures); track 2 gets nothing.
    MarkStoreBuilder builder(3);
    for (uint32_t i = 0; i < 300; ++i) {
        builder.append(0, 1000 * static_cast<int64_t>(i), i, 0);
        builder.append(1, i == 150 ? 10 : 1000 * static_cast<int64_t>(i) + 1, 1000 + i, markstyle::kFromServer);
    }
    const auto store = builder.finish();
    CHECK(store->trackCount() == 3);
    CHECK(store->size() == 600);
    CHECK(store->memoryBytes() > 600 * 14);
    const MarkTrack first = store->track(0);
    const MarkTrack second = store->track(1);
    CHECK(store->track(2).empty());
    REQUIRE(first.size() == 300);
    REQUIRE(second.size() == 300);
    CHECK(first.item(299) == 299);
    CHECK(second.tsNs(1) == 10);  // moved into place
    CHECK(second.item(1) == 1150);
    const std::vector<int> shifts = second.levelShifts();
    CHECK(std::is_sorted(shifts.begin(), shifts.end()));
    // Each track folds only its own marks.
    std::vector<FoldedMark> folded;
    second.fold(TimeAxis(0, 0, 1, 0), 0, 5000, 3, folded);
    for (const FoldedMark& mark : folded) {
        CHECK(mark.item >= 1000);
        CHECK((mark.style & markstyle::kFromServer) != 0);
    }
    // A track with enough marks has summaries; they never outnumber its marks.
    CHECK_FALSE(first.levelShifts().empty());
    CHECK(first.summaryEntries() <= first.size());
}

TEST_CASE("marks counted before they come are stored as those collected first", "[timeline][lod]") {
    // Four tracks: interleaved, one stepping back in time, one with durations from its 100th mark on,
    // one empty; then the same marks told their counts first.
    const auto feed = [](MarkStoreBuilder& builder) {
        for (uint32_t i = 0; i < 300; ++i) {
            builder.append(0, 1000 * static_cast<int64_t>(i), i, markstyle::kPayload);
            builder.append(1, i == 150 ? 10 : 1000 * static_cast<int64_t>(i) + 1, 1000 + i, markstyle::kFromServer);
            const int64_t start = 1000 * static_cast<int64_t>(i) + 2;
            builder.append(2, start, 2000 + i, 0, i >= 100 ? start + 5000 : INT64_MIN);
        }
    };
    MarkStoreBuilder collected(4);
    feed(collected);
    const std::unique_ptr<MarkStore> expected = collected.finish();
    MarkStoreBuilder counted(4);
    counted.expect({300, 300, 300, 0});
    feed(counted);
    const std::unique_ptr<MarkStore> store = counted.finish();
    REQUIRE(store->size() == expected->size());
    CHECK(store->memoryBytes() == expected->memoryBytes());
    for (uint32_t index = 0; index < 4; ++index) {
        const MarkTrack track = store->track(index);
        const MarkTrack want = expected->track(index);
        REQUIRE(track.size() == want.size());
        CHECK(track.levelShifts() == want.levelShifts());
        CHECK(track.summaryEntries() == want.summaryEntries());
        for (size_t mark = 0; mark < track.size(); ++mark) {
            CHECK(track.tsNs(mark) == want.tsNs(mark));
            CHECK(track.item(mark) == want.item(mark));
            CHECK(track.style(mark) == want.style(mark));
            CHECK(track.endNs(mark) == want.endNs(mark));
        }
    }
    CHECK(store->track(1).tsNs(1) == 10);  // moved into place
    CHECK(store->track(2).endNs(150) == 150'002 + 5000);

    // Fewer than told: the track holds what came. More: refused.
    MarkStoreBuilder fewer(1);
    fewer.expect({3});
    fewer.append(0, 5, 1, 0);
    CHECK(fewer.finish()->track(0).size() == 1);
    MarkStoreBuilder more(1);
    more.expect({1});
    more.append(0, 5, 1, 0);
    CHECK_THROWS_AS(more.append(0, 6, 2, 0), std::logic_error);
}
