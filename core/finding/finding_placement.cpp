#include "finding/finding_placement.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace tcpscope {

std::vector<PlacedPartTotal> placedPartTotals(const FindingPlacement& placement) {
    using Key = std::tuple<WaitPartKind, std::string, std::string>;
    std::map<Key, std::vector<double>> byPlace;
    std::vector<Key> order;  // of first appearance: the way the stalls went
    for (const SpanPlacement& span : placement.spans) {
        for (const WaitPart& part : span.parts) {
            Key key{part.kind, part.from, part.to};
            auto [slot, inserted] = byPlace.try_emplace(key);
            if (inserted) {
                order.push_back(std::move(key));
            }
            slot->second.push_back(part.ms);
        }
    }
    std::vector<PlacedPartTotal> totals;
    for (const Key& key : order) {
        std::vector<double>& values = byPlace.at(key);
        std::sort(values.begin(), values.end());
        PlacedPartTotal total{std::get<0>(key), std::get<1>(key), std::get<2>(key)};
        total.spans = static_cast<uint32_t>(values.size());
        total.medianMs = values[values.size() / 2];  // the upper middle, as the clock fits take it
        for (const double ms : values) {
            total.totalMs += ms;
        }
        totals.push_back(std::move(total));
    }
    std::stable_sort(totals.begin(), totals.end(),
                     [](const PlacedPartTotal& a, const PlacedPartTotal& b) { return a.totalMs > b.totalMs; });
    return totals;
}

std::vector<LostBetweenTotal> lostBetweenTotals(const FindingPlacement& placement) {
    std::vector<LostBetweenTotal> totals;
    for (const SpanPlacement& span : placement.spans) {
        if (!span.lostBetween) {
            continue;
        }
        auto same = std::find_if(totals.begin(), totals.end(), [&](const LostBetweenTotal& total) {
            return total.hop.from == span.lostBetween->from && total.hop.to == span.lostBetween->to;
        });
        if (same == totals.end()) {
            same = totals.insert(totals.end(), LostBetweenTotal{*span.lostBetween, 0});
        }
        ++same->spans;
    }
    std::stable_sort(totals.begin(), totals.end(),
                     [](const LostBetweenTotal& a, const LostBetweenTotal& b) { return a.spans > b.spans; });
    return totals;
}

}  // namespace tcpscope
