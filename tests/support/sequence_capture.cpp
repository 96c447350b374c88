// Conversations for the sequence diagram tests: see sequence_capture.hpp.
#include "support/sequence_capture.hpp"

#include <string>

namespace tcpscope::test {

namespace {

constexpr int64_t kStartNs = 1'700'000'000'000'000'000;

int64_t at(double ms) {
    return kStartNs + static_cast<int64_t>(ms * 1e6);
}

struct Flow {
    std::string clientAddress;
    uint16_t clientPort = 0;
    std::string serverAddress;
    uint16_t serverPort = 0;
    uint32_t clientSeq = 1001;  // next sequence numbers after the SYNs
    uint32_t serverSeq = 5001;

    SegmentSpec spec(bool fromClient, uint16_t flags, uint32_t length) const {
        SegmentSpec s;
        s.source = fromClient ? clientAddress : serverAddress;
        s.sourcePort = fromClient ? clientPort : serverPort;
        s.destination = fromClient ? serverAddress : clientAddress;
        s.destinationPort = fromClient ? serverPort : clientPort;
        s.seq = fromClient ? clientSeq : serverSeq;
        s.ack = fromClient ? serverSeq : clientSeq;
        s.flags = flags;
        s.payloadLength = length;
        return s;
    }
    // Sends `length` bytes from one side and advances its sequence number.
    BuiltPacket send(bool fromClient, uint32_t length, double ms) {
        const uint16_t flags = length > 0 ? tcpflag::kAck | tcpflag::kPsh : tcpflag::kAck;
        BuiltPacket packet = buildPacket(spec(fromClient, flags, length), at(ms));
        (fromClient ? clientSeq : serverSeq) += length;
        return packet;
    }
    void handshake(std::vector<BuiltPacket>& out, double ms) {
        SegmentSpec syn = spec(true, tcpflag::kSyn, 0);
        syn.seq = clientSeq - 1;
        syn.ack = 0;
        syn.options.mss = 1460;
        out.push_back(buildPacket(syn, at(ms)));
        SegmentSpec synAck = spec(false, tcpflag::kSyn | tcpflag::kAck, 0);
        synAck.seq = serverSeq - 1;
        synAck.options.mss = 1460;
        out.push_back(buildPacket(synAck, at(ms + 0.05)));
        out.push_back(send(true, 0, ms + 0.1));
    }
    void close(std::vector<BuiltPacket>& out, double ms) {
        out.push_back(buildPacket(spec(true, tcpflag::kFin | tcpflag::kAck, 0), at(ms)));
        ++clientSeq;
        out.push_back(buildPacket(spec(false, tcpflag::kFin | tcpflag::kAck, 0), at(ms + 0.05)));
        ++serverSeq;
        out.push_back(send(true, 0, ms + 0.1));
    }
};

}  // namespace

std::vector<BuiltPacket> nagleConversation(const SequenceScript& script) {
    Flow flow{"10.0.0.1", 40000, "10.0.0.2", 3306};
    std::vector<BuiltPacket> packets;
    flow.handshake(packets, 0);
    double t = 10;
    for (uint32_t request = 0; request < script.requests; ++request) {
        packets.push_back(flow.send(true, 128, t));                         // the first write leaves
        packets.push_back(flow.send(false, 0, t + script.holdMs - 0.02));   // its delayed ACK
        packets.push_back(flow.send(true, 35, t + script.holdMs));          // the held 35 bytes
        packets.push_back(flow.send(false, 163, t + script.holdMs + 0.5));  // the answer
        packets.push_back(flow.send(true, 0, t + script.holdMs + 0.55));
        t += script.holdMs + 5;
    }
    flow.close(packets, t + script.silenceMs);
    return packets;
}

std::vector<BuiltPacket> proxyConversation(uint32_t requests) {
    Flow front{"10.0.0.1", 40000, "10.0.0.2", 3307};
    Flow back{"10.0.0.2", 50000, "10.0.0.3", 3306};
    Flow other{"10.0.0.2", 50001, "10.0.0.4", 5432};
    std::vector<BuiltPacket> packets;
    front.handshake(packets, 0);
    back.handshake(packets, 1);
    other.handshake(packets, 5);
    double t = 10;
    for (uint32_t request = 0; request < requests; ++request) {
        packets.push_back(front.send(true, 100, t));
        packets.push_back(front.send(false, 0, t + 0.01));
        packets.push_back(back.send(true, 100, t + 0.1));
        packets.push_back(back.send(false, 200, t + 1));
        packets.push_back(back.send(true, 0, t + 1.01));
        packets.push_back(front.send(false, 200, t + 1.1));
        packets.push_back(front.send(true, 0, t + 1.11));
        t += 10;
    }
    // The proxy also talks to someone else, once, after the forwarding: not the partner.
    packets.push_back(other.send(true, 50, t));
    packets.push_back(other.send(false, 50, t + 0.5));
    front.close(packets, t + 5);
    back.close(packets, t + 6);
    return packets;
}

CaptureAnalysis analyzeBuilt(const std::vector<BuiltPacket>& packets) {
    const std::filesystem::path path = uniqueTempPath("sequence");
    writePcapFile(path, packets);
    CaptureAnalysis analysis = analyzeCaptures({path.string()}, {});
    std::filesystem::remove(path);
    return analysis;
}

}  // namespace tcpscope::test
