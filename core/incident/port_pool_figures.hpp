#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "decode/ip_address.hpp"
#include "detect/detector_options.hpp"
#include "incident/connection_groups.hpp"
#include "incident/incident.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// The ephemeral port range of clients that used ports `lowest`..`highest`, at most `mostPortsOfOneClient`
/// distinct ports by one client address: the range the user gave; else a known range (`options`' range,
/// which --os sets, Linux's 32768-60999 or IANA's 49152-65535) when the ports lie in it and fill it; else
/// the span of the ports used, said as observed.
PortRange inferPortRange(uint16_t lowest, uint16_t highest, uint32_t mostPortsOfOneClient,
                         const DetectorOptions& options);

/// A stretch with no new connection of a port pool once its range was full.
struct PoolPause {
    int64_t startNs = 0;  ///< the last SYN before it
    int64_t endNs = 0;    ///< the first SYN after it
    uint32_t lastFrameBefore = 0;
    uint32_t firstFrameAfter = 0;
};

/// The connections of clients toward one server endpoint, measured as the user counts them.
struct PortPoolFigures {
    std::vector<IpAddress> clients;  ///< in address order
    uint64_t connections = 0;
    uint64_t clientClosedFirst = 0;
    uint32_t mostPortsOfOneClient = 0;        ///< distinct source ports of the client address that used the most
    std::optional<uint16_t> fixedSourcePort;  ///< every connection (two or more) came from this one port
    PortRange range;
    double timeWaitS = 60;
    double rateSustainablePerS = 0;  ///< range ports / TIME_WAIT, per client address, summed
    int64_t firstSynNs = 0;
    int64_t lastSynNs = 0;
    uint32_t firstFrame = 0;
    uint32_t lastFrame = 0;  ///< the last connection's first SYN
    /// The longest stretch without a new connection after the ports used filled the range, at least a
    /// second long and ten times the median gap between connections.
    std::optional<PoolPause> pause;
    /// The capture ends with the range full and no pause after it: the clients stopped.
    bool endsOnFullRange = false;
    uint64_t connectionsBeforeStop = 0;  ///< before the pause, or in all when it ends on a full range
    double rateAchievedPerS = 0;         ///< to the first SYN after the pause, or over the capture
};

/// Measures the connections toward `server` from every client address, with the port range and
/// TIME_WAIT of `options` (inferPortRange). Bounded: keeps one time per connection of the pool.
PortPoolFigures measurePortPool(const ConnectionStore& connections, const ConnectionGroups& groups,
                                const Endpoint& server, const DetectorOptions& options);

}  // namespace tcpscope
