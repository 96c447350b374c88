#pragma once
#include <QString>
#include <cstdint>
#include <vector>

#include "loading/analysis_results.hpp"

namespace tcpscope::ui {

/// One capture point's sighting of a packet, named, on the reference clock.
struct NamedSighting {
    QString point;
    int64_t tsNs = 0;  ///< on the reference clock
};

/// Every point that saw the segment of `frame`, in the order of the points; empty for results
/// without several capture points.
std::vector<NamedSighting> namedSightingsOf(const AnalysisResults& results, uint32_t frame);

/// The packets table's "Seen at": "client 0.003120, proxy 0.008133, server 0.020190" (seconds
/// since the first frame, as the Time column and `tcpscope-cli packets --point`); empty without points.
QString seenAtText(const AnalysisResults& results, uint32_t frame);

}  // namespace tcpscope::ui
