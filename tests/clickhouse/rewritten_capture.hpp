#pragma once
// A sample capture moved to other addresses, other ports and a later time, into a new
// file: the same real traffic as if another host had recorded it (the samples stay untouched).
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>

namespace tcpscope::test {

struct CaptureRewrite {
    std::array<uint8_t, 4> clientAddress{};  ///< the IPv4 address the client's packets come from
    std::array<uint8_t, 4> serverAddress{};
    uint16_t serverPort = 0;     ///< the server's port in the sample
    uint16_t newServerPort = 0;  ///< its port in the copy
    uint16_t clientPortOffset = 0;  ///< added to every client port
    int64_t shiftNs = 0;         ///< added to every packet's time
};

/// Writes `from` (Ethernet, IPv4, TCP: the loopback samples) rewritten into `to`, a microsecond
/// pcap like the samples; the IPv4 and TCP checksums are updated for the changed fields. A
/// packet of another shape, or one whose ports are not the server's, fails the test (throws).
void writeRewrittenCapture(const std::string& from, const std::filesystem::path& to, const CaptureRewrite& rewrite);

}  // namespace tcpscope::test
