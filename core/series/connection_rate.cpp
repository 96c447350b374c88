#include "series/connection_rate.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "decode/decoded_packet.hpp"
#include "series/interval_totals.hpp"

namespace tcpscope {

ConnectionAttempts connectionAttemptsOf(const AnalysisEngine& engine) {
    ConnectionAttempts attempts;
    extendConnectionAttempts(attempts, engine.packets(), engine.connections(), engine.firstTsNs(), engine.lastTsNs());
    return attempts;
}

void extendConnectionAttempts(ConnectionAttempts& attempts, const PacketIndex& packets,
                              const ConnectionStore& connections, int64_t originNs, int64_t lastTsNs) {
    attempts.durationSeconds = secondsSince(originNs, lastTsNs);
    for (size_t position = attempts.packetsRead; position < packets.size(); ++position) {
        const IndexedPacket packet = packets.at(position);
        if ((packet.tcpFlags & (tcpflag::kSyn | tcpflag::kAck | tcpflag::kRst)) != tcpflag::kSyn ||
            packet.connection >= connections.size()) {
            continue;
        }
        const double x = secondsSince(originNs, packet.tsNs);
        // A new generation of a reused 4-tuple is a connection of its own, starting at its first SYN.
        if (connections[packet.connection].firstFrame == packet.frame) {
            attempts.newConnections.push_back(x);
        } else {
            attempts.synRetransmissions.push_back(x);
        }
    }
    attempts.packetsRead = std::max(attempts.packetsRead, packets.size());
}

double rateBinSeconds(double fromX, double toX, size_t columns, double minPixels) {
    static constexpr std::array kBins{0.001, 0.01, 0.1, 1.0, 10.0, 60.0, 600.0, 3600.0};
    return firstBinAtLeast(kBins, fromX, toX, columns, minPixels);
}

std::vector<ChartPoint> ratePoints(std::span<const double> times, double fromX, double toX, double binSeconds) {
    std::vector<ChartPoint> points;
    if (!(toX > fromX) || !(binSeconds > 0)) {
        return points;
    }
    const double firstBin = std::floor(fromX / binSeconds) * binSeconds;
    constexpr double kMaxBins = 1 << 20;  // a chart asks for about one bin per few pixels
    const double wanted = std::ceil((toX - firstBin) / binSeconds);
    if (wanted > kMaxBins) {
        return points;
    }
    const auto bins = static_cast<size_t>(wanted);
    points.reserve(2 * bins);
    auto next = std::lower_bound(times.begin(), times.end(), firstBin);
    for (size_t bin = 0; bin < bins; ++bin) {
        const double start = firstBin + static_cast<double>(bin) * binSeconds;
        const double end = start + binSeconds;
        const auto after = std::lower_bound(next, times.end(), end);
        const double perSecond = static_cast<double>(after - next) / binSeconds;
        points.push_back({start, perSecond});
        points.push_back({end, perSecond});
        next = after;
    }
    return points;
}

}  // namespace tcpscope
