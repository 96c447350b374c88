#include "report/placement_json.hpp"

#include <cmath>

namespace tcpscope {
namespace {

using Json = nlohmann::ordered_json;

double roundedMs(double ms) {
    return std::round(ms * 1000) / 1000;
}

// A part on one host (or beyond one point and back) is "at" it; a part between two points goes "from", "to".
void addPlace(Json& object, const std::string& from, const std::string& to) {
    if (from == to) {
        object["at"] = from.empty() ? Json(nullptr) : Json(from);
        return;
    }
    object["from"] = from.empty() ? Json(nullptr) : Json(from);
    object["to"] = to.empty() ? Json(nullptr) : Json(to);
}

Json hopJson(const PointHop& hop) {
    return {{"from", hop.from}, {"to", hop.to}};
}

}  // namespace

Json placementJson(const FindingPlacement& placement) {
    Json result = Json::object();
    result["waited_at"] = placement.waitedAt.empty() ? Json(nullptr) : Json(placement.waitedAt);
    Json parts = Json::array();
    for (const PlacedPartTotal& total : placedPartTotals(placement)) {
        Json part = {{"what", waitPartKindName(total.kind)}};
        addPlace(part, total.from, total.to);
        part["spans"] = total.spans;
        part["median_ms"] = roundedMs(total.medianMs);
        part["total_ms"] = roundedMs(total.totalMs);
        parts.push_back(std::move(part));
    }
    result["parts"] = std::move(parts);
    Json lost = Json::array();
    for (const LostBetweenTotal& total : lostBetweenTotals(placement)) {
        Json hop = hopJson(total.hop);
        hop["spans"] = total.spans;
        lost.push_back(std::move(hop));
    }
    result["lost_between"] = std::move(lost);
    Json spans = Json::array();
    for (const SpanPlacement& span : placement.spans) {
        Json spanParts = Json::array();
        for (const WaitPart& part : span.parts) {
            Json entry = {{"what", waitPartKindName(part.kind)}};
            addPlace(entry, part.from, part.to);
            entry["ms"] = roundedMs(part.ms);
            spanParts.push_back(std::move(entry));
        }
        spans.push_back({{"parts", std::move(spanParts)},
                         {"lost_between", span.lostBetween ? hopJson(*span.lostBetween) : Json(nullptr)},
                         {"reached_receiver", span.reachedReceiver}});
    }
    result["spans"] = std::move(spans);
    return result;
}

}  // namespace tcpscope
