#pragma once
#include <algorithm>
#include <array>
#include <cstdint>

#include "decode/ip_address.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// What the observers read of a segment's connection, as its record was right after the segment:
/// the fields of Connection that some detector reads while it handles a segment, under the same
/// names, and nothing else. A file loaded on two threads hands one of these, not the 256-byte
/// record, to the thread that runs the detectors (the engine's record goes on changing meanwhile);
/// a field a detector needs per segment is added here (and in take()): the compiler tells which.
struct ConnectionSnapshot {
    /// What the snapshot keeps of one side's DirectionSummary.
    struct Sent {
        uint32_t firstFinFrame = 0;
        uint16_t mss = 0;
        bool sawFin = false;
        bool timestamps = false;
        friend bool operator==(const Sent&, const Sent&) = default;
    };
    /// What the snapshot keeps of one side's SequenceSummary.
    struct Sequence {
        uint32_t baseSeq = 0;
        friend bool operator==(const Sequence&, const Sequence&) = default;
    };

    int64_t firstTsNs = 0;
    int64_t lastTsNs = 0;
    int64_t initialRttNs = 0;
    int64_t serverLegNs = -1;  ///< SYN to SYN-ACK: the round trip from the capture point to the server (-1: unknown)
    int64_t reuseGapNs = 0;
    uint32_t reusedFrom = kNoConnection;
    uint32_t id = 0;
    uint32_t firstFrame = 0;
    Endpoint client;
    Endpoint server;
    std::array<Sent, 2> sent;          ///< indexed by sideIndex(sender)
    std::array<Sequence, 2> sequence;  ///< indexed by sideIndex(sender)
    bool hasActiveCloser = false;
    bool handshakeAcked = false;  ///< Connection::handshakeAckTsNs is set
    Side activeCloser = Side::Client;

    /// The snapshot of `connection` (whose every field the caller may read).
    static ConnectionSnapshot of(const Connection& connection) {
        ConnectionSnapshot snapshot;
        snapshot.take(connection);
        return snapshot;
    }
    /// Makes this the snapshot of `connection`, in place (the reading thread writes it straight into
    /// the batch it hands over).
    void take(const Connection& connection) {
        firstTsNs = connection.firstTsNs;
        lastTsNs = connection.lastTsNs;
        initialRttNs = connection.initialRttNs;
        serverLegNs = connection.serverLegNs();
        reuseGapNs = connection.reuseGapNs;
        reusedFrom = connection.reusedFrom;
        id = connection.id;
        firstFrame = connection.firstFrame;
        client = connection.client;
        server = connection.server;
        for (size_t side = 0; side < 2; ++side) {
            const DirectionSummary& summary = connection.sent[side];
            sent[side] = Sent{summary.firstFinFrame, summary.mss, summary.sawFin, summary.timestamps};
            sequence[side].baseSeq = connection.sequence[side].baseSeq;
        }
        hasActiveCloser = connection.hasActiveCloser;
        handshakeAcked = connection.handshakeAckTsNs != kNoTime;
        activeCloser = connection.activeCloser;
    }

    // As Connection's.
    [[nodiscard]] const Sent& from(Side side) const { return sent[sideIndex(side)]; }
    [[nodiscard]] const Endpoint& endpoint(Side side) const { return side == Side::Client ? client : server; }
    [[nodiscard]] int64_t handshakeRttNs() const { return handshakeAcked ? initialRttNs : -1; }
    /// As Connection's.
    [[nodiscard]] int64_t legToNs(Side side) const {
        if (!handshakeAcked || serverLegNs < 0) {
            return -1;
        }
        return side == Side::Server ? serverLegNs : std::max<int64_t>(initialRttNs - serverLegNs, 0);
    }

    friend bool operator==(const ConnectionSnapshot&, const ConnectionSnapshot&) = default;
};

}  // namespace tcpscope
