#pragma once
#include <QString>
#include <cstdint>
#include <limits>
#include <vector>

#include "loading/analysis_results.hpp"
#include "present/sequence_diagram.hpp"

namespace tcpscope::ui {

/// A sequence diagram of several capture points: each lifeline drawn at the point on its host, each arrow
/// from the moment the sender's point saw the packet leave to the moment the receiver's point saw
/// it arrive (on the reference clock), so that its slant is the measured one-way delay.
struct SequencePointTimes {
    static constexpr int64_t kUnseen = std::numeric_limits<int64_t>::min();
    struct ArrowTimes {
        int64_t sentNs = kUnseen;      ///< at the sender's host's point, or kUnseen
        int64_t receivedNs = kUnseen;  ///< at the receiver's host's point, or kUnseen
    };
    /// Per lifeline: the point on its host ("proxy"; a proxy whose two sides were captured at two
    /// points: "front / back"), or empty when no point is on it.
    std::vector<QString> lifelinePoints;
    std::vector<ArrowTimes> arrows;  ///< per arrow of the diagram

    [[nodiscard]] bool empty() const { return arrows.empty(); }
};

/// The point times of `diagram`'s arrows and lifelines from the results' sightings; empty for
/// results without several capture points.
SequencePointTimes pointTimesOf(const AnalysisResults& results, const SequenceDiagram& diagram);

}  // namespace tcpscope::ui
