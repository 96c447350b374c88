#pragma once
#include <absl/container/flat_hash_set.h>

#include <cstdint>
#include <string>
#include <vector>

#include "detect/capture_joins.hpp"
#include "detect/detector.hpp"
#include "detect/support/connection_states.hpp"
#include "detect/timestamp_clocks.hpp"
#include "detect/unseen_bytes.hpp"

namespace tcpscope {

/// Says where the capture itself misleads the analysis, in one `capture_quality` finding once the
/// input has ended, and what that means for the other findings:
/// - packets the file holds twice (left out of the analysis by the engine, see DuplicateFrames): a
///   warning from kCopiesWarnShare of the TCP packets on, information below (a few copies left in
///   can cost a verdict, never make one), nothing below kMinCopies (a stray copy is no reason to
///   doubt the rest);
/// - time going backwards (a file holding its trace twice, merged clocks), a clock jumping by more
///   than any capture runs between two packets, and two recordings joined (CaptureJoins);
/// - packets missing inside connections whose handshake it saw (ACKs beyond the highest byte the
///   capture saw from the peer, which no reordering or retransmission explains; a handshake whose
///   SYN-ACK is missing though the server acknowledges the SYN), and a large share of the data the
///   receivers acknowledged missing in any connection (UnseenBytes);
/// - one direction only: connections of which one side was captured though its ACKs show the other
///   side sent data, when they hold kOneSidedShare of the TCP packets or more (or the server's side
///   of a handshake alone);
/// - data segments only (no SYN, and under kPayloadOnlyShare FIN, RST or pure ACK among
///   kPayloadOnlyMin segments or more): a filter on flags or length;
/// - frame times that both hosts' TCP timestamp clocks contradict (TimestampClocks: rewritten times).
/// A capture that begins in the middle of a connection, or cuts payload at its snap length, is not
/// a quality problem for the TCP analysis and is not reported here.
class CaptureQualityDetector final : public Detector {
public:
    using Detector::Detector;

    /// The clock check whose contradictions to report (DetectorSet's).
    void useClocks(const TimestampClocks* clocks) { clocks_ = clocks; }

    void onSegment(const SegmentEvent& event) override;
    void onEnd(int64_t lastTsNs) override;
    void onRetire(const Connection& connection) override;

    static constexpr uint64_t kMinCopies = 3;
    /// Copies from this share of the TCP packets on are a warning (docs/accuracy.md says why).
    static constexpr double kCopiesWarnShare = 0.01;
    /// Unseen data from this share of the acknowledged bytes on, or in this many gaps, is large.
    static constexpr double kMissingShare = 0.05;
    static constexpr uint64_t kManyGaps = 1000;
    /// One-sided connections holding this share of the TCP packets make a file of one direction.
    static constexpr double kOneSidedShare = 0.5;
    /// A file of this many segments or more, none a SYN, whose segments without payload are under
    /// kPayloadOnlyShare of them holds data segments only.
    static constexpr uint64_t kPayloadOnlyMin = 50;
    static constexpr double kPayloadOnlyShare = 0.01;

private:
    // What the capture saw a side send (12 B: one per side of every connection).
    struct Sent {
        // The highest sequence end (`any`); while the side has sent no data, the first ACK its peer
        // sent (the peer's `ackSent`), to tell whether the peer's ACKs moved on.
        uint32_t highestEnd = 0;
        uint32_t synAck = 0;           // the acknowledgement its SYN should get: the SYN's seq + 1 (`syn`)
        bool any : 1 = false;          // highestEnd is its own
        bool heard : 1 = false;        // any packet of this side
        bool syn : 1 = false;          // its SYN (client) or SYN-ACK (server)
        bool missing : 1 = false;      // a handshake packet or direction missing was counted for it
        bool ackSent : 1 = false;      // it sent an ACK
        bool ackAdvanced : 1 = false;  // it acknowledged more than its first ACK did: the peer sent something
        bool outstanding : 1 = false;  // data or a FIN of it not acknowledged yet
        bool unseen : 1 = false;       // it has a record in unseenBytes_
        bool reset : 1 = false;        // it sent a RST
    };
    static_assert(sizeof(Sent) == 12);

    // One statement of the finding, and whether it is a reason to doubt the other findings.
    struct Problem {
        std::string text;
        bool warns = true;
    };

    // The server's segment `event` shows that the capture missed the server's SYN-ACK (it ACKs the
    // client's SYN, whose SYN-ACK is not in the file) or every client packet (it ACKs client data
    // after its SYN-ACK, and no client packet is in the file): counts it once per connection.
    void checkHandshake(const SegmentEvent& event, Sent& server, const Sent& client);
    // Counts `connection` if only one of its sides was captured though the other demonstrably sent,
    // and what UnseenBytes keeps of its sides; its state is not used again.
    void settle(const Connection& connection, const Sent* sides);
    // Keeps the ACK `ack` of the side `own` of `event`'s connection, about its `peer`'s data.
    void noteAck(const SegmentEvent& event, Sent& own, Sent& peer, uint32_t ack);
    // The connections seen so far that wait for data to be acknowledged, and are not reset.
    [[nodiscard]] uint32_t waitingNow() const;
    // The statements about the file's clock and copies, with their evidence and frames.
    void describeTime(std::vector<Problem>& problems, Finding& finding, nlohmann::json::object_t& evidence) const;
    // The statements about packets and directions the file misses.
    void describeMissing(std::vector<Problem>& problems, Finding& finding, nlohmann::json::object_t& evidence) const;

    ConnectionStates<Sent, 2> sides_;
    UnseenBytes unseenBytes_;
    CaptureJoins joins_;
    uint64_t unseenAcks_ = 0;
    absl::flat_hash_set<uint32_t> unseenConnections_;
    std::vector<uint32_t> unseenFrames_;
    uint64_t missingSynAcks_ = 0;      // connections whose SYN-ACK the capture missed
    uint64_t missingClientSides_ = 0;  // connections whose client packets the capture missed, all of them
    std::vector<uint32_t> missingFrames_;
    uint64_t oneSided_ = 0;         // connections of which one side only was captured, the other demonstrably sent
    uint64_t oneSidedPackets_ = 0;  // their packets
    std::vector<uint32_t> oneSidedFrames_;  // their first frames
    uint64_t segments_ = 0;
    uint64_t withoutPayload_ = 0;  // SYN, FIN, RST or no payload
    uint64_t syns_ = 0;            // SYN and SYN-ACK segments
    uint64_t capturedBytes_ = 0;   // payload captured once (retransmissions not counted), at the end
    const TimestampClocks* clocks_ = nullptr;
};

}  // namespace tcpscope
