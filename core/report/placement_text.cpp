#include "report/placement_text.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace tcpscope {

std::string placedPartText(const PlacedPartTotal& part) {
    const double ms = part.medianMs;
    switch (part.kind) {
        case WaitPartKind::InFlight: return fmt::format("{:.1f} ms in flight {} -> {}", ms, part.from, part.to);
        case WaitPartKind::DelayedAck: return fmt::format("{:.1f} ms held by {}'s delayed ACK", ms, part.from);
        case WaitPartKind::ReleasedAfterAck:
            return fmt::format("{:.1f} ms in {}'s kernel after the ACK", ms, part.from);
        case WaitPartKind::RetransmissionTimer:
            return fmt::format("{:.1f} ms {}'s retransmission timer", ms, part.from.empty() ? "the sender" : part.from);
        case WaitPartKind::WaitingOnApplication:
            return fmt::format("{:.1f} ms waiting on {}'s application (window closed)", ms, part.from);
        case WaitPartKind::OutOfSight: break;
    }
    if (part.from == part.to) {
        return fmt::format("{:.1f} ms beyond {} and back, where no point was", ms, part.from);
    }
    return fmt::format("{:.1f} ms out of sight between {} and {}", ms, part.from, part.to);
}

std::string placementText(const FindingPlacement& placement) {
    const size_t stalls = placement.spans.size();
    std::string line = fmt::format("({} stall{})", stalls, stalls == 1 ? "" : "s");
    if (!placement.waitedAt.empty()) {
        line += fmt::format(", waited at {}", placement.waitedAt);
    }
    std::string separator = ": ";
    for (const PlacedPartTotal& part : placedPartTotals(placement)) {
        line += separator + placedPartText(part);
        separator = ", ";
    }
    for (const LostBetweenTotal& lost : lostBetweenTotals(placement)) {
        line += fmt::format("; lost between {} and {} ({} of them)", lost.hop.from, lost.hop.to, lost.spans);
    }
    return line;
}

void writePlacementsText(std::ostream& out, const CaptureAnalysis& analysis) {
    bool any = false;
    for (const Finding& finding : analysis.findings) {
        const std::optional<FindingPlacement>& placement = analysis.enrichments.of(finding.id).placement;
        if (!placement || placement->spans.empty()) {
            continue;
        }
        if (!any) {
            fmt::print(out, "Where the stalls' time went (medians per stall, on the reference clock)\n");
            any = true;
        }
        fmt::print(out, "  {} flow {} {}\n", findingKindName(finding.kind), finding.connection,
                   placementText(*placement));
    }
    if (any) {
        fmt::print(out, "\n");
    }
}

}  // namespace tcpscope
