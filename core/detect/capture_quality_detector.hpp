#pragma once
#include <absl/container/flat_hash_set.h>

#include <cstdint>
#include <vector>

#include "detect/detector.hpp"
#include "detect/support/connection_states.hpp"
#include "detect/timestamp_clocks.hpp"

namespace tcpscope {

/// Says where the capture itself misleads the analysis, in one `capture_quality` finding once the
/// input has ended: packets the file holds twice (left out of the analysis by the engine, see
/// DuplicateFrames), time going backwards (a file holding its trace twice, merged clocks), and
/// ACKs of data the capture never saw inside connections whose handshake it did see (packets
/// dropped at the capture point or a thinned file: delays measured around them are not real):
/// an ACK beyond the highest byte the capture ever saw from the peer, which no reordering or
/// retransmission explains; and frame times that both hosts' TCP timestamp clocks contradict
/// (TimestampClocks: the times were rewritten or made up). Fewer than kMinCopies copies are left out without a word (a
/// stray copy is no reason to doubt the rest). A capture that begins in the middle of a connection, or cuts payload at
/// its snap length, is not a quality problem for the TCP analysis and is not reported here.
class CaptureQualityDetector final : public Detector {
public:
    using Detector::Detector;

    /// The clock check whose contradictions to report (DetectorSet's).
    void useClocks(const TimestampClocks* clocks) { clocks_ = clocks; }

    void onSegment(const SegmentEvent& event) override;
    void onEnd(int64_t lastTsNs) override;
    void onRetire(const Connection& connection) override { highestEnd_.release(connection.id); }

    static constexpr uint64_t kMinCopies = 3;

private:
    // What the capture saw a side send (12 B).
    struct Sent {
        uint32_t highestEnd = 0;  // the highest sequence end (`any`)
        uint32_t synAck = 0;      // the acknowledgement its SYN should get: the SYN's seq + 1 (`syn`)
        bool any = false;
        bool heard = false;       // any packet of this side
        bool syn = false;         // its SYN (client) or SYN-ACK (server)
        bool missing = false;     // a handshake packet or direction missing was counted for it
    };
    static_assert(sizeof(Sent) == 12);

    // The server's segment `event` shows that the capture missed the server's SYN-ACK (it ACKs the
    // client's SYN, whose SYN-ACK is not in the file) or every client packet (it ACKs client data
    // after its SYN-ACK, and no client packet is in the file): counts it once per connection.
    void checkHandshake(const SegmentEvent& event, Sent& server, const Sent& client);

    ConnectionStates<Sent, 2> highestEnd_;
    uint64_t unseenAcks_ = 0;
    absl::flat_hash_set<uint32_t> unseenConnections_;
    std::vector<uint32_t> unseenFrames_;
    uint64_t missingSynAcks_ = 0;      // connections whose SYN-ACK the capture missed
    uint64_t missingClientSides_ = 0;  // connections whose client packets the capture missed, all of them
    std::vector<uint32_t> missingFrames_;
    const TimestampClocks* clocks_ = nullptr;
};

}  // namespace tcpscope
