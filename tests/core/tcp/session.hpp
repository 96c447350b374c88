#pragma once
// A scripted TCP conversation pushed through the real engine, for tests of connection tracking
// and analysis flags: frames are built in code and decoded like frames from a file.
#include <cstdint>

#include "engine/analysis_engine.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope::test {

class Session {
public:
    static constexpr int64_t kStartNs = 1'700'000'000'000'000'000;
    static constexpr int64_t kMs = 1'000'000;

    explicit Session(uint32_t linkType = linktype::kEthernet) : linkType_(linkType) {}
    /// An engine with `options` (a live capture's retirement).
    explicit Session(const EngineOptions& options) : engine(options), linkType_(linktype::kEthernet) {}

    /// Pushes one segment at `atMs` milliseconds after the start; returns its analysis flags.
    AnalysisFlags push(const SegmentSpec& spec, double atMs) {
        const BuiltPacket packet = buildPacket(spec, kStartNs + static_cast<int64_t>(atMs * kMs), linkType_);
        engine.push(packet.raw(), 0);
        return engine.packets().size() == 0 ? AnalysisFlags{0} : engine.packets().analysis(engine.packets().size() - 1);
    }

    /// Pushes an IP packet built in code (an ICMP message, say) at `atMs` milliseconds after the start.
    void pushIp(const std::vector<uint8_t>& ipPacket, double atMs) {
        const std::vector<uint8_t> frame = wrapInLink(ipPacket, linkType_);
        engine.push(asRaw(frame, kStartNs + static_cast<int64_t>(atMs * kMs), linkType_), 0);
    }

    /// A segment from the client (10.0.0.1:40000) to the server (10.0.0.2:80).
    static SegmentSpec fromClient(uint32_t seq, uint32_t ack, uint16_t flags, uint32_t length = 0) {
        SegmentSpec spec;
        spec.seq = seq;
        spec.ack = ack;
        spec.flags = flags;
        spec.payloadLength = length;
        return spec;
    }
    /// A segment from the server back to the client.
    static SegmentSpec fromServer(uint32_t seq, uint32_t ack, uint16_t flags, uint32_t length = 0) {
        SegmentSpec spec = fromClient(seq, ack, flags, length);
        std::swap(spec.source, spec.destination);
        std::swap(spec.sourcePort, spec.destinationPort);
        return spec;
    }

    /// SYN, SYN-ACK, ACK with the given initial sequence numbers, 1 ms apart from `atMs`.
    void handshake(uint32_t clientIsn, uint32_t serverIsn, double atMs = 0) {
        push(fromClient(clientIsn, 0, tcpflag::kSyn), atMs);
        push(fromServer(serverIsn, clientIsn + 1, tcpflag::kSyn | tcpflag::kAck), atMs + 1);
        push(fromClient(clientIsn + 1, serverIsn + 1, tcpflag::kAck), atMs + 2);
    }

    [[nodiscard]] const Connection& connection(size_t id) const { return engine.connections().at(id); }

    AnalysisEngine engine;

private:
    uint32_t linkType_;
};

}  // namespace tcpscope::test
