#include "support/stall_conversation.hpp"

#include "support/packet_builder.hpp"

namespace tcpscope::test {

std::vector<TimedFrame> retransmissionStallFrames() {
    SegmentSpec syn;
    syn.seq = 1000;
    syn.flags = tcpflag::kSyn;
    SegmentSpec synAck;
    synAck.source = "10.0.0.2";
    synAck.sourcePort = 80;
    synAck.destination = "10.0.0.1";
    synAck.destinationPort = 40000;
    synAck.seq = 5000;
    synAck.ack = 1001;
    synAck.flags = tcpflag::kSyn | tcpflag::kAck;
    SegmentSpec ack = syn;
    ack.seq = 1001;
    ack.ack = 5001;
    ack.flags = tcpflag::kAck;
    SegmentSpec request = ack;
    request.flags = tcpflag::kAck | tcpflag::kPsh;
    request.payloadLength = 100;
    SegmentSpec answer = synAck;
    answer.seq = 5001;
    answer.ack = 1101;
    answer.flags = tcpflag::kAck;
    return {{0, buildFrame(syn)},      {1, buildFrame(synAck)},     {2, buildFrame(ack)},
            {10, buildFrame(request)}, {1210, buildFrame(request)}, {1211, buildFrame(answer)}};
}

}  // namespace tcpscope::test
