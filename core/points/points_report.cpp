#include "points/points_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cmath>

namespace tcpscope {
namespace {

using Json = nlohmann::ordered_json;

// Milliseconds to the microsecond, as the rest of the report gives durations.
double roundedMs(double ms) {
    return std::round(ms * 1000) / 1000;
}

Json optionalMs(const std::optional<double>& ms) {
    return ms ? Json(roundedMs(*ms)) : Json(nullptr);
}

Json delayJson(const std::optional<OneWayDelay>& delay) {
    if (!delay) {
        return nullptr;
    }
    return {
        {"packets", delay->packets}, {"median_ms", roundedMs(delay->medianMs)}, {"p99_ms", roundedMs(delay->p99Ms)}};
}

Json pointJson(const CapturePointsSummary& analysis, const PointSummary& summary) {
    const PointClock& clock = summary.clock;
    Json via = Json::array();
    for (const uint32_t p : clock.via) {
        via.push_back(analysis.points[p].point.name);
    }
    Json point;
    point["name"] = summary.point.name;
    point["files"] = summary.point.files;
    point["reference"] = clock.reference;
    point["linked"] = clock.linked;
    point["separable"] = clock.separable;
    point["offset_ms"] = clock.linked ? Json(roundedMs(clock.clock.offsetNs / 1e6)) : Json(nullptr);
    point["offset_uncertainty_ms"] = optionalMs(clock.uncertaintyMs);
    point["drift_ppm"] =
        clock.linked && clock.driftMeasured ? Json(std::round(clock.clock.drift * 1e9) / 1e3) : Json(nullptr);
    point["drift_uncertainty_ppm"] = clock.driftMeasured && clock.driftUncertaintyPpm
                                         ? Json(std::round(*clock.driftUncertaintyPpm * 1e3) / 1e3)
                                         : Json(nullptr);
    point["via"] = via;
    point["overridden"] = clock.overridden;
    if (summary.fittedClock) {
        const PointClock& fitted = *summary.fittedClock;
        point["fitted"] = {
            {"linked", fitted.linked},
            {"separable", fitted.separable},
            {"offset_ms", fitted.linked ? Json(roundedMs(fitted.clock.offsetNs / 1e6)) : Json(nullptr)},
            {"offset_uncertainty_ms", optionalMs(fitted.uncertaintyMs)},
            {"drift_ppm", fitted.linked && fitted.driftMeasured ? Json(std::round(fitted.clock.drift * 1e9) / 1e3)
                                                                : Json(nullptr)}};
    } else {
        point["fitted"] = nullptr;
    }
    point["packets"] = summary.frames;
    point["tcp_packets"] = summary.tcpSegments;
    point["analysed_tcp_packets"] = summary.analysedSegments;
    point["connections_analysed"] = summary.connectionsAnalysed;
    return point;
}

std::string offsetText(const PointClock& clock);

// The clock the user gave, then the one fitted.
std::string givenClockText(const PointClock& given, const PointClock& fitted) {
    return fmt::format("clock {:+.3f} ms, drift {:+.1f} ppm, given by --clock (fitted: {})",
                       roundedMs(given.clock.offsetNs / 1e6) + 0.0, given.clock.drift * 1e6 + 0.0, offsetText(fitted));
}

std::string offsetText(const PointClock& clock) {
    if (clock.reference) {
        return "reference clock";
    }
    if (!clock.linked) {
        return "no segment in common with a linked point: clock unknown, times as recorded";
    }
    // Rounded first, so that a few nanoseconds below zero print as +0.000, not -0.000.
    std::string text = fmt::format("clock {:+.3f} ms", roundedMs(clock.clock.offsetNs / 1e6) + 0.0);
    if (!clock.separable) {
        return text + " (seen one way only: offset and one-way delay cannot be told apart)";
    }
    text += fmt::format(" ± {:.3f} ms", clock.uncertaintyMs.value_or(0));
    if (clock.driftMeasured) {
        text +=
            fmt::format(", drift {:+.1f} ± {:.1f} ppm", clock.clock.drift * 1e6, clock.driftUncertaintyPpm.value_or(0));
    }
    return text;
}

}  // namespace

std::string pointClockText(const PointSummary& summary) {
    return summary.fittedClock ? givenClockText(summary.clock, *summary.fittedClock) : offsetText(summary.clock);
}

std::string oneWayDelayText(const std::string& from, const std::string& to, const std::optional<OneWayDelay>& delay) {
    if (!delay) {
        return fmt::format("{} -> {} unknown", from, to);
    }
    return fmt::format("{} -> {} median {:.3f} ms, p99 {:.3f} ms ({} packets)", from, to, delay->medianMs, delay->p99Ms,
                       delay->packets);
}

Json pointsJson(const CapturePointsSummary& analysis) {
    Json points = Json::array();
    for (const PointSummary& summary : analysis.points) {
        points.push_back(pointJson(analysis, summary));
    }
    Json hops = Json::array();
    for (const PointLink& hop : analysis.hops) {
        Json entry;
        entry["from"] = analysis.points[hop.first].point.name;
        entry["to"] = analysis.points[hop.second].point.name;
        entry["packets_matched"] = hop.fit.matched;
        entry["separable"] = hop.fit.separable;
        entry["from_to"] = delayJson(hop.fit.firstToSecond);
        entry["to_from"] = delayJson(hop.fit.secondToFirst);
        hops.push_back(entry);
    }
    return {{"points", points}, {"hops", hops}};
}

void writePointsText(std::ostream& out, const CapturePointsSummary& analysis) {
    fmt::print(out, "Capture points ({}), each connection analysed once, on {}'s clock\n", analysis.points.size(),
               analysis.points.empty() ? std::string("no") : analysis.points.front().point.name);
    for (const PointSummary& summary : analysis.points) {
        fmt::print(out, "  {:<12} {} packets, {} of {} TCP analysed ({} connections): {}\n", summary.point.name,
                   summary.frames, summary.analysedSegments, summary.tcpSegments, summary.connectionsAnalysed,
                   pointClockText(summary));
    }
    for (const PointLink& hop : analysis.hops) {
        const std::string& from = analysis.points[hop.first].point.name;
        const std::string& to = analysis.points[hop.second].point.name;
        fmt::print(out, "  hop {} - {}: {} segments matched; {}; {}\n", from, to, hop.fit.matched,
                   oneWayDelayText(from, to, hop.fit.firstToSecond), oneWayDelayText(to, from, hop.fit.secondToFirst));
    }
    if (analysis.points.size() > 1) {
        fmt::print(out, "  (offsets assume the same one-way delay both ways, as NTP does)\n");
    }
    fmt::print(out, "\n");
}

}  // namespace tcpscope
