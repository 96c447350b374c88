#pragma once
// One connection (one generation of a 4-tuple) as a script of segments with their sequence
// numbers kept, pushed into a DetectorSession: for the tests of port_reuse, time_wait_churn and
// port_exhaustion, which need many connections, reused tuples and either side closing first.
#include <cstdint>
#include <string>

#include "stall_test_session.hpp"

namespace tcpscope::test {

/// The segments of one TCP connection between fixed endpoints. Each call pushes one segment at
/// `atMs` (milliseconds after the session's start) and returns its frame number.
template <typename SessionType>
class Conversation {
public:
    Conversation(SessionType& session, std::string client, uint16_t clientPort, std::string server, uint16_t serverPort,
                 uint32_t clientIsn, uint32_t serverIsn)
        : session_(session),
          client_(std::move(client)),
          server_(std::move(server)),
          clientPort_(clientPort),
          serverPort_(serverPort),
          clientIsn_(clientIsn),
          serverIsn_(serverIsn),
          clientNext_(clientIsn + 1),
          serverNext_(serverIsn + 1) {}

    /// Carries TCP timestamps: TSval = `clientTsVal` / `serverTsVal` plus the time in ms.
    void useTimestamps(uint32_t clientTsVal, uint32_t serverTsVal) {
        timestamps_ = true;
        clientTsVal_ = clientTsVal;
        serverTsVal_ = serverTsVal;
    }

    uint32_t syn(double atMs) { return fromClient(clientIsn_, 0, tcpflag::kSyn, 0, atMs); }
    uint32_t synAck(double atMs) {
        return fromServer(serverIsn_, clientIsn_ + 1, tcpflag::kSyn | tcpflag::kAck, 0, atMs);
    }
    uint32_t handshakeAck(double atMs) { return clientAck(atMs); }
    /// SYN, SYN-ACK and ACK, 0.1 ms apart.
    void handshake(double atMs) {
        syn(atMs);
        synAck(atMs + 0.1);
        handshakeAck(atMs + 0.2);
    }

    uint32_t clientData(double atMs, uint32_t length) {
        const uint32_t frame = fromClient(clientNext_, serverNext_, tcpflag::kAck | tcpflag::kPsh, length, atMs);
        clientNext_ += length;
        return frame;
    }
    uint32_t serverData(double atMs, uint32_t length) {
        const uint32_t frame = fromServer(serverNext_, clientNext_, tcpflag::kAck | tcpflag::kPsh, length, atMs);
        serverNext_ += length;
        return frame;
    }
    uint32_t clientAck(double atMs) { return fromClient(clientNext_, serverNext_, tcpflag::kAck, 0, atMs); }
    uint32_t serverAck(double atMs) { return fromServer(serverNext_, clientNext_, tcpflag::kAck, 0, atMs); }
    uint32_t clientFin(double atMs) {
        const uint32_t frame = fromClient(clientNext_, serverNext_, tcpflag::kFin | tcpflag::kAck, 0, atMs);
        ++clientNext_;
        return frame;
    }
    uint32_t serverFin(double atMs) {
        const uint32_t frame = fromServer(serverNext_, clientNext_, tcpflag::kFin | tcpflag::kAck, 0, atMs);
        ++serverNext_;
        return frame;
    }
    uint32_t clientRst(double atMs, uint32_t seq) { return fromClient(seq, 0, tcpflag::kRst, 0, atMs); }
    uint32_t serverRst(double atMs) {
        return fromServer(serverNext_, clientNext_, tcpflag::kRst | tcpflag::kAck, 0, atMs);
    }
    /// A bare ACK from the server with any acknowledgement number (the challenge ACK of a TIME_WAIT).
    uint32_t serverBareAck(double atMs, uint32_t seq, uint32_t ack) {
        return fromServer(seq, ack, tcpflag::kAck, 0, atMs);
    }

    /// Handshake, a request and a response, then `closer` closes first and the other side follows;
    /// 0.1 ms per step from `atMs`. Returns the time of the last segment.
    double exchange(double atMs, Side closer, uint32_t requestBytes = 82, uint32_t responseBytes = 512) {
        handshake(atMs);
        clientData(atMs + 0.3, requestBytes);
        serverData(atMs + 0.4, responseBytes);
        return close(atMs + 0.5, closer);
    }
    /// `closer` sends FIN, the peer ACKs it with its own FIN, the closer ACKs. Returns the last time.
    double close(double atMs, Side closer) {
        if (closer == Side::Client) {
            clientFin(atMs);
            serverFin(atMs + 0.1);
            clientAck(atMs + 0.2);
        } else {
            serverFin(atMs);
            clientFin(atMs + 0.1);
            serverAck(atMs + 0.2);
        }
        return atMs + 0.2;
    }

    /// The next sequence number the server expects from the client (its rcv_nxt).
    [[nodiscard]] uint32_t clientNext() const { return clientNext_; }
    [[nodiscard]] uint32_t serverNext() const { return serverNext_; }

private:
    uint32_t fromClient(uint32_t seq, uint32_t ack, uint16_t flags, uint32_t length, double atMs) {
        SegmentSpec spec = segmentBetween(client_, clientPort_, server_, serverPort_, seq, ack, flags, length);
        return push(spec, clientTsVal_, atMs);
    }
    uint32_t fromServer(uint32_t seq, uint32_t ack, uint16_t flags, uint32_t length, double atMs) {
        SegmentSpec spec = segmentBetween(server_, serverPort_, client_, clientPort_, seq, ack, flags, length);
        return push(spec, serverTsVal_, atMs);
    }
    uint32_t push(SegmentSpec& spec, uint32_t tsBase, double atMs) {
        if (timestamps_) {
            spec.options.hasTimestamp = true;
            spec.options.tsVal = tsBase + static_cast<uint32_t>(atMs);
        }
        session_.push(spec, atMs);
        return static_cast<uint32_t>(session_.engine.packets().size());
    }

    SessionType& session_;
    std::string client_;
    std::string server_;
    uint16_t clientPort_;
    uint16_t serverPort_;
    uint32_t clientIsn_;
    uint32_t serverIsn_;
    uint32_t clientNext_;
    uint32_t serverNext_;
    bool timestamps_ = false;
    uint32_t clientTsVal_ = 0;
    uint32_t serverTsVal_ = 0;
};

}  // namespace tcpscope::test
