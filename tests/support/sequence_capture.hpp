#pragma once
// Small conversations built in code for the tests of the sequence diagram (the Mermaid text in
// core, the sequence diagram layout in the ui): a Nagle stall behind a delayed ACK, a long silence, and a
// proxy pair, analysed by the real pipeline from a temporary pcap file.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope::test {

/// The shape of a built conversation.
struct SequenceScript {
    double holdMs = 40.1;     ///< from the 128-byte segment to the 35 bytes it held back
    double silenceMs = 1500;  ///< idle time after the answer, before the close
    uint32_t requests = 1;    ///< request/answer exchanges, each with one Nagle stall
};

/// Client 10.0.0.1:40000 -> server 10.0.0.2:3306: handshake (MSS 1460), then per request a
/// 128-byte write, the server's ACK `holdMs` - 0.02 ms later (a delayed ACK), the 35 held bytes,
/// the server's ACK and a 163-byte answer with its ACK; then `silenceMs` of nothing and a close.
std::vector<BuiltPacket> nagleConversation(const SequenceScript& script = {});

/// A client (10.0.0.1:40000) talking to a proxy (10.0.0.2:3307) which forwards every request
/// to a server (10.0.0.3:3306) from 10.0.0.2:50000 and the answer back: connection 0 is the
/// client side, connection 1 the server side. Plus an unrelated connection 2 from 10.0.0.9.
std::vector<BuiltPacket> proxyConversation(uint32_t requests = 3);

/// Writes `packets` to a temporary pcap file, analyses it with every detector, removes the file.
CaptureAnalysis analyzeBuilt(const std::vector<BuiltPacket>& packets);

}  // namespace tcpscope::test
