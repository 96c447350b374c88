#include "report/points_blocks.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "points/points_report.hpp"

namespace tcpscope {

namespace {

// "5.012 ms / 5.210 ms (60)": median and p99 of the one-way delay, and the packets they are of.
std::string delayCell(const std::optional<OneWayDelay>& delay) {
    return delay ? fmt::format("{:.3f} ms / {:.3f} ms ({})", delay->medianMs, delay->p99Ms, delay->packets) : "unknown";
}

}  // namespace

std::vector<ReportBlock> pointsReportBlocks(const CapturePointsSummary& points) {
    std::vector<ReportBlock> blocks;
    if (points.points.empty()) {
        return blocks;
    }
    const std::string& reference = points.points.front().point.name;
    blocks.push_back(headingBlock(2, fmt::format("Capture points and clocks ({})", points.points.size()), "points"));
    blocks.push_back(
        paragraphBlock("", fmt::format("Each connection analysed once, from one point, on {}'s clock.", reference)));
    ReportBlock table;
    table.kind = ReportBlock::Kind::Table;
    table.rows.push_back({"point", "files", "packets", "TCP analysed", "connections", "clock against the reference"});
    for (const PointSummary& point : points.points) {
        std::string files;
        for (const std::string& file : point.point.files) {
            files += (files.empty() ? "" : ", ") + std::filesystem::path(file).filename().string();
        }
        table.rows.push_back({point.point.name, files, std::to_string(point.frames),
                              fmt::format("{} of {}", point.analysedSegments, point.tcpSegments),
                              std::to_string(point.connectionsAnalysed), pointClockText(point)});
    }
    blocks.push_back(std::move(table));
    if (points.hops.empty()) {
        blocks.push_back(paragraphBlock("Hops.", "no two points saw a segment in common."));
        return blocks;
    }
    ReportBlock hops;
    hops.kind = ReportBlock::Kind::Table;
    hops.rows.push_back({"hop", "matched", "way", "median / p99 (packets)", "way back", "median / p99 (packets)"});
    for (const PointLink& hop : points.hops) {
        const std::string& from = points.points[hop.first].point.name;
        const std::string& to = points.points[hop.second].point.name;
        hops.rows.push_back({fmt::format("{} ↔ {}", from, to), std::to_string(hop.fit.matched),
                             fmt::format("{} → {}", from, to), delayCell(hop.fit.firstToSecond),
                             fmt::format("{} → {}", to, from), delayCell(hop.fit.secondToFirst)});
    }
    blocks.push_back(paragraphBlock("Hops.", "one-way delays between the points that saw the same segments."));
    blocks.push_back(std::move(hops));
    blocks.push_back(paragraphBlock("", "Offsets assume the same one-way delay both ways, as NTP does."));
    return blocks;
}

}  // namespace tcpscope
