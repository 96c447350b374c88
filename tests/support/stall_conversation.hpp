#pragma once
// A short conversation built in code that holds one retransmission stall: a handshake, a request
// lost and sent again 1.2 s later, the answer. For tests that need a finding in a file of their own.
#include <cstdint>
#include <vector>

namespace tcpscope::test {

/// One frame (Ethernet, IPv4, TCP) and when it was captured, in milliseconds from the first.
struct TimedFrame {
    int64_t atMs = 0;
    std::vector<uint8_t> bytes;
};

/// Client 10.0.0.1:40000 to server 10.0.0.2:80: SYN, SYN-ACK, ACK at 0-2 ms, a 100-byte request at
/// 10 ms, the same request again at 1210 ms (a retransmission stall of 1200 ms), the ACK at 1211 ms.
std::vector<TimedFrame> retransmissionStallFrames();

}  // namespace tcpscope::test
