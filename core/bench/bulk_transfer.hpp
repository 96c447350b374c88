#pragma once
#include <cstdint>
#include <vector>

#include "bench/conversation.hpp"
#include "bench/tcp_dialogue.hpp"

namespace tcpscope::bench {

/// How one long transfer of W2 goes.
struct BulkTransferPlan {
    DialogueSettings dialogue;
    Side sender = Side::Server;      ///< a download (server sends) or an upload
    uint64_t segments = 1000;        ///< full-sized data segments to send
    uint32_t flightSegments = 16;    ///< segments sent back to back per round trip
    int64_t rttNs = 1'000'000;
    int64_t flightIntervalNs = 10'000'000;  ///< from one flight to the next (the application's pace)
};

/// A long transfer of full-sized segments: handshake and a small request, then flights of
/// segments, the receiver acknowledging every second one, then a FIN close. One step per flight.
class BulkTransfer final : public Conversation {
public:
    explicit BulkTransfer(const BulkTransferPlan& plan);

    bool nextStep(int64_t nowNs, std::vector<PlannedSegment>& out) override;

private:
    enum class Phase : uint8_t { Handshake, Flights, Close, Done };

    BulkTransferPlan plan_;
    TcpDialogue dialogue_;
    Phase phase_ = Phase::Handshake;
    uint64_t sent_ = 0;
    int64_t nextFlightNs_ = 0;
};

}  // namespace tcpscope::bench
