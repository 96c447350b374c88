#pragma once
#include <cstdint>
#include <vector>

#include "series/chart_point.hpp"
#include "tcp/connection.hpp"
#include "tcp/packet_index.hpp"

namespace tcpscope {

/// Wireshark's Window Scaling graph of what one side sent: the receiver's advertised window,
/// scaled as announced in the handshake, against the sender's bytes in flight (sent and not yet
/// acknowledged: tcp.analysis.bytes_in_flight), both in bytes over seconds since the capture start.
/// A sender whose bytes in flight reach the window is held by the receiver; one far below it
/// is held by something else (Nagle, the application, the congestion window).
struct WindowScalingSeries {
    std::vector<ChartPoint> receiveWindow;  ///< staircase: the window of each of the peer's ACKs
    std::vector<ChartPoint> bytesInFlight;  ///< staircase: after each data segment and each ACK
    int windowScale = -1;                   ///< the receiver's shift, -1 unknown, -2 not in use
    double peakWindow = 0;
    double peakInFlight = 0;
};

/// The graph of what `sender` sent on `connection`; x in seconds since `originNs`.
WindowScalingSeries windowScalingOf(const PacketIndex& packets, const Connection& connection, int64_t originNs,
                                    Side sender);

}  // namespace tcpscope
