#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench/planned_segment.hpp"

namespace tcpscope::bench {

/// The two ends of a connection: the client sends the first SYN.
enum class Side : uint8_t { Client = 0, Server = 1 };

inline Side peerOf(Side side) { return side == Side::Client ? Side::Server : Side::Client; }

/// A TCP 4-tuple, IPv4 addresses in host byte order.
struct TcpTuple {
    uint32_t clientIp = 0;
    uint32_t serverIp = 0;
    uint16_t clientPort = 0;
    uint16_t serverPort = 0;
};

/// What both ends agreed on for one connection.
struct DialogueSettings {
    TcpTuple tuple;
    uint32_t clientIsn = 0;
    uint32_t serverIsn = 0;
    bool timestamps = true;      ///< both ends use TCP timestamps (12 option bytes per segment)
    uint16_t mssOption = 1460;   ///< advertised MSS; payloads carry mssOption - 12 with timestamps
    uint16_t rawWindow = 502;    ///< window field after the handshake (scaled by 2^7)
    uint32_t clientTsBase = 0;   ///< TCP timestamp clocks of both ends (1 ms ticks)
    uint32_t serverTsBase = 0;
    uint16_t clientIpId = 0;
    uint16_t serverIpId = 0;
};

/// One generation of a TCP connection as both ends see it: keeps each side's next sequence
/// number, window, IP ID and timestamp clock, and turns "the server sends 300 bytes at t" into
/// a PlannedSegment with consistent numbers. Segments are appended to the caller's vector in
/// any time order; the scheduler sorts them.
class TcpDialogue {
public:
    explicit TcpDialogue(const DialogueSettings& settings);

    /// The client's SYN (again with the same ISN when called again: a retransmission).
    void syn(std::vector<PlannedSegment>& out, int64_t tsNs);
    /// The server's SYN-ACK (again: a retransmission).
    void synAck(std::vector<PlannedSegment>& out, int64_t tsNs);
    /// New data from `side`; returns the sequence number of its first byte.
    uint32_t send(std::vector<PlannedSegment>& out, Side side, int64_t tsNs, uint16_t bytes);
    /// Data sent before, sent again (a retransmission, or a zero-window probe of one byte).
    void resend(std::vector<PlannedSegment>& out, Side side, int64_t tsNs, uint32_t seq, uint16_t bytes);
    /// A pure ACK of everything the peer sent so far.
    void ack(std::vector<PlannedSegment>& out, Side side, int64_t tsNs);
    /// A pure ACK with an explicit acknowledgement number (a duplicate ACK, an ACK below a hole).
    void ackAt(std::vector<PlannedSegment>& out, Side side, int64_t tsNs, uint32_t ackNumber);
    /// FIN (with ACK) from `side`.
    void fin(std::vector<PlannedSegment>& out, Side side, int64_t tsNs);
    /// RST from `side`; with `withAck` it also acknowledges the peer (RST/ACK).
    void reset(std::vector<PlannedSegment>& out, Side side, int64_t tsNs, bool withAck);

    /// A segment with explicit numbers that the dialogue does not track: one of an earlier
    /// generation of the 4-tuple (the challenge ACK of a TIME_WAIT, the RST answering it).
    void stray(std::vector<PlannedSegment>& out, Side side, int64_t tsNs, uint8_t flags, uint32_t seq,
               uint32_t ackNumber);

    /// Sets the window field `side` advertises from now on (0: closed window).
    void setWindow(Side side, uint16_t rawWindow) { window_[index(side)] = rawWindow; }
    [[nodiscard]] uint32_t nextSeq(Side side) const { return nextSeq_[index(side)]; }
    /// Payload bytes of a full-sized segment.
    [[nodiscard]] uint16_t fullSegmentBytes() const;
    [[nodiscard]] const TcpTuple& tuple() const { return settings_.tuple; }

private:
    static std::size_t index(Side side) { return static_cast<std::size_t>(side); }
    PlannedSegment make(Side side, int64_t tsNs, uint8_t flags, uint32_t seq, uint32_t ackNumber, uint16_t bytes);

    DialogueSettings settings_;
    std::array<uint32_t, 2> nextSeq_{};
    std::array<uint16_t, 2> window_{};
    std::array<uint16_t, 2> ipId_{};
    std::array<uint32_t, 2> lastTsVal_{};
    bool synSent_ = false;
};

}  // namespace tcpscope::bench
