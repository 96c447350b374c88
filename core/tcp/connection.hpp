#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "decode/ip_address.hpp"
#include "tcp/chunked_store.hpp"
#include "tcp/sequence_analysis.hpp"

namespace tcpscope {

/// Which end of a connection: the client sent the first SYN (without a SYN, the higher port).
enum class Side : uint8_t { Client = 0, Server = 1 };

constexpr Side otherSide(Side side) { return side == Side::Client ? Side::Server : Side::Client; }
constexpr size_t sideIndex(Side side) { return static_cast<size_t>(side); }
/// "client" or "server".
std::string_view sideName(Side side);

/// The life stage a connection reached, as far as the capture shows.
enum class ConnectionState : uint8_t {
    SynSent,      ///< SYN seen, no SYN-ACK
    SynReceived,  ///< SYN-ACK seen, handshake not completed
    Established,  ///< data can flow; no FIN or RST yet
    HalfClosed,   ///< one side sent FIN
    Closed,       ///< both sides sent FIN
    Reset,        ///< ended by RST
};
/// "syn_sent", "established", ... as used in the JSON report.
std::string_view connectionStateName(ConnectionState state);

inline constexpr uint32_t kNoConnection = UINT32_MAX;
inline constexpr int64_t kNoTime = INT64_MIN;

/// What one side sent, and what it announced in its SYN.
struct DirectionSummary {
    uint64_t packets = 0;
    uint64_t payloadBytes = 0;
    uint64_t retransmittedBytes = 0;
    int64_t firstFinTsNs = kNoTime;
    uint32_t firstFinFrame = 0;
    uint32_t maxBytesInFlight = 0;  ///< most data sent and not yet acknowledged by the peer at once
    uint32_t isn = 0;
    uint16_t mss = 0;         ///< MSS announced in its SYN, 0 if none
    int8_t windowScale = -1;  ///< shift announced in its SYN, -1 if none
    // One bit each: there are two summaries per connection, a million connections in a large capture.
    bool sawSyn : 1 = false;
    bool sawFin : 1 = false;
    bool sawRst : 1 = false;
    bool sackPermitted : 1 = false;
    bool timestamps : 1 = false;
};

/// What the reports need of one direction's sequence analysis once the connection is over (the
/// full SequenceState lives in the ConnectionTable only while the connection is live).
struct SequenceSummary {
    uint32_t baseSeq = 0;     ///< the sender's initial sequence number (guessed when the SYN was not seen)
    uint32_t nextSeq = 0;     ///< highest seq + length (+1 for SYN/FIN) sent
    int8_t windowScale = -1;  ///< -1 unknown, -2 no scaling in use, otherwise the shift
};

/// One TCP connection (one generation of a 4-tuple): identity, handshake, close, and what each
/// direction sent. Everything here is bounded in size; it stays when a live capture retires the
/// connection (the sequence analysis's working state does not, see ConnectionTable).
struct Connection {
    // The fields are grouped by size (the 8-byte ones first) so that the struct needs no
    // padding: there is one per connection, a million in a large capture.
    int64_t firstTsNs = 0;
    int64_t lastTsNs = 0;

    // Handshake. A retransmitted SYN moves synTsNs, as Wireshark's initial RTT does.
    int64_t synTsNs = kNoTime;
    int64_t synAckTsNs = kNoTime;
    int64_t handshakeAckTsNs = kNoTime;
    int64_t initialRttNs = 0;  ///< handshakeAckTsNs - synTsNs when the ACK was seen, fixed once set (0: unknown)

    // Close: the first FIN's sender is the active closer, who keeps TIME_WAIT.
    int64_t closeTsNs = kNoTime;  ///< second FIN, or the RST

    // Port reuse: the earlier generation of the same 4-tuple.
    int64_t reuseGapNs = 0;        ///< from the earlier generation's close (or last packet) to this SYN
    uint32_t reusedFrom = kNoConnection;

    uint32_t id = 0;
    uint32_t firstFrame = 0;
    uint32_t lastFrame = 0;
    uint32_t synCount = 0;
    uint32_t synAckCount = 0;
    uint32_t tuple = UINT32_MAX;  ///< the 4-tuple's number (TupleRef::tuple)
    Endpoint client;
    Endpoint server;
    bool clientIsLow = true;     ///< client is FlowKey::low (lets a lookup find the side without comparing addresses)
    bool midstream = false;      ///< first packet was not a SYN: the capture started after the handshake
    ConnectionState state = ConnectionState::Established;
    bool hasActiveCloser = false;
    Side activeCloser = Side::Client;
    bool hasResetBy = false;
    Side resetBy = Side::Client;
    bool reusedEarlierClosed = false;

    std::array<DirectionSummary, 2> sent;          ///< indexed by sideIndex(sender)
    std::array<SequenceSummary, 2> sequence;       ///< indexed by sideIndex(sender)

    [[nodiscard]] const DirectionSummary& from(Side side) const { return sent[sideIndex(side)]; }
    [[nodiscard]] const Endpoint& endpoint(Side side) const { return side == Side::Client ? client : server; }
    /// Initial RTT from the handshake (SYN to the ACK of the SYN-ACK), or a negative value if unknown.
    [[nodiscard]] int64_t handshakeRttNs() const { return handshakeAckTsNs != kNoTime ? initialRttNs : -1; }
    /// SYN to SYN-ACK: the round trip from the capture point to the server and back, or -1.
    [[nodiscard]] int64_t serverLegNs() const {
        return synTsNs != kNoTime && synAckTsNs != kNoTime && synAckTsNs >= synTsNs ? synAckTsNs - synTsNs : -1;
    }
    /// The round trip from the capture point to `side` and back, from the handshake (the SYN to its
    /// SYN-ACK for the server, the SYN-ACK to its ACK for the client), or -1 if unknown. Where the
    /// capture was taken shows in them: near the client the server's leg is the whole round trip.
    [[nodiscard]] int64_t legToNs(Side side) const {
        const int64_t serverLeg = serverLegNs();
        if (handshakeAckTsNs == kNoTime || serverLeg < 0) {
            return -1;
        }
        return side == Side::Server ? serverLeg : std::max<int64_t>(initialRttNs - serverLeg, 0);
    }
};

/// Every connection of an analysis, by id, in chunks that never move (a reference stays valid).
using ConnectionStore = ChunkedStore<Connection>;

}  // namespace tcpscope
