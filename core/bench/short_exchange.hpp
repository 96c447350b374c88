#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "bench/bench_random.hpp"
#include "bench/conversation.hpp"
#include "bench/tcp_dialogue.hpp"

namespace tcpscope::bench {

/// At most one thing goes wrong in a connection's responses (W1 mixes each into a few percent).
enum class ResponseTrouble : uint8_t {
    None,
    RtoRetransmission,   ///< the last segment of a response is lost and resent when the RTO fires
    FastRetransmission,  ///< a segment of a long response is lost; three duplicate ACKs, fast retransmit
    OutOfOrder,          ///< two segments of a response arrive swapped
    ZeroWindow,          ///< the client stops reading: it advertises a zero window, then a window update
};

/// How an earlier generation of a 4-tuple ended, for a connection that reuses the tuple.
struct FinishedConnection {
    TcpTuple tuple;
    uint32_t clientNextSeq = 0;
    uint32_t serverNextSeq = 0;
    int64_t closedNs = 0;
    Side closer = Side::Client;  ///< who sent the first FIN (and so holds TIME_WAIT)
    bool reset = false;
};

/// Where finished connections are reported, so later ones can reuse their 4-tuples.
class FinishedConnectionSink {
public:
    virtual ~FinishedConnectionSink() = default;
    virtual void finished(const FinishedConnection& connection) = 0;
};

/// How one short connection of W1 goes: drawn by the workload, played by ShortExchange.
struct ShortExchangePlan {
    DialogueSettings dialogue;
    uint64_t seed = 0;             ///< sizes and times inside the connection
    int64_t rttNs = 200'000;
    int64_t meanIdleNs = 300'000'000;  ///< client think time between requests
    uint32_t exchanges = 1;        ///< request/response pairs (0: connect and close, a health check)
    uint32_t maxResponseBytes = 4'500;
    Side closer = Side::Client;
    bool resetClose = false;       ///< the client aborts with RST/ACK instead of closing with FINs
    bool finAckTogether = true;    ///< the passive closer's FIN rides with its ACK of the first FIN
    bool synDropped = false;       ///< the first SYN is not answered (listen queue full); resent after 1 s
    bool handshakeAckDropped = false;  ///< the server resends its SYN-ACK after 1 s (final ACK dropped)
    bool nagleStall = false;       ///< one request in two small writes held by Nagle until a 40 ms delayed ACK
    bool longIdle = false;         ///< one think time of 5 to 30 s (a pooled connection)
    ResponseTrouble trouble = ResponseTrouble::None;
    /// The SYN reuses the tuple of this earlier generation while the server still holds it in
    /// TIME_WAIT: challenge ACK, the client's RST, the SYN again after 1 s.
    std::optional<FinishedConnection> collision;
};

/// A short request/response connection: handshake, a few exchanges, FIN or RST close, with the
/// troubles of its plan. Each step is one phase (handshake, one exchange, the close).
class ShortExchange final : public Conversation {
public:
    ShortExchange(const ShortExchangePlan& plan, FinishedConnectionSink* sink);

    bool nextStep(int64_t nowNs, std::vector<PlannedSegment>& out) override;

private:
    enum class Phase : uint8_t { Handshake, Exchange, Close, Done };

    int64_t handshake(int64_t startNs, std::vector<PlannedSegment>& out);
    int64_t request(int64_t startNs, bool nagle, std::vector<PlannedSegment>& out);
    int64_t response(int64_t requestNs, ResponseTrouble trouble, std::vector<PlannedSegment>& out);
    int64_t close(int64_t startNs, std::vector<PlannedSegment>& out);
    uint32_t responseBytes(ResponseTrouble trouble);
    int64_t serverDelayNs();

    ShortExchangePlan plan_;
    FinishedConnectionSink* sink_;
    TcpDialogue dialogue_;
    BenchRandom random_;
    Phase phase_ = Phase::Handshake;
    uint32_t exchange_ = 0;
    uint32_t troubleExchange_ = 0;
    uint32_t nagleExchange_ = 0;
    uint32_t longIdleExchange_ = 0;
};

}  // namespace tcpscope::bench
