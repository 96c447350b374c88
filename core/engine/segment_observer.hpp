#pragma once
#include <cstddef>
#include <cstdint>

#include "decode/decoded_packet.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// One analysed TCP segment, as the engine hands it to observers (detectors, live views).
struct SegmentEvent {
    const TcpSegment& segment;
    const Connection& connection;  ///< after this segment was applied
    Side sender;
    uint32_t frame;
    int64_t tsNs;
    AnalysisFlags analysis;
    size_t packetIndex;            ///< position in the engine's PacketIndex
};

/// Receives every analysed segment in capture order. Detectors implement this so that they run
/// the same way on a file and on a live capture.
class SegmentObserver {
public:
    virtual ~SegmentObserver() = default;
    /// Called once per TCP segment, in capture order.
    virtual void onSegment(const SegmentEvent& event) = 0;
    /// Called on a live capture a few times a second with the capture clock's time (never less than
    /// the last segment's, never going back), so that a stall still going on shows without waiting
    /// for the packet that ends it. Not called while a file is read: onEnd ends every open stall.
    virtual void onClock(int64_t nowNs) { (void)nowNs; }
    /// Called once when the input has ended (no more segments will come), with the last capture time.
    virtual void onEnd(int64_t lastTsNs) { (void)lastTsNs; }
    /// Called when a live capture retires `connection` (closed or idle for the retirement age, see
    /// ConnectionRetirement): no segment of it comes again. Release what is kept per connection,
    /// keeping only what the findings and the report need.
    virtual void onRetire(const Connection& connection) { (void)connection; }
};

}  // namespace tcpscope
