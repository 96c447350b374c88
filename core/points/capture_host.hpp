#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "decode/ip_address.hpp"

namespace tcpscope {

/// The host a capture was most likely taken on, as its own packets show it.
struct CaptureHost {
    IpAddress address;
    /// Told by its handshakes (the side that answered at once is the one beside the capture), not
    /// only by how many packets it sent.
    bool fromHandshakes = false;
};

/// The host that `files` (one capture point's, merged) were captured on, from at most `maxFrames`
/// frames: the address that its handshakes put next to the capture (a SYN-ACK right after the SYN:
/// the server is local; the handshake's ACK right after the SYN-ACK: the client is), the most
/// handshakes first, then the most packets sent; without a handshake, the address that sent the
/// most TCP packets. A sender alone is no proof: at a server the busiest sender can be its client.
/// nullopt for files without TCP. Throws CaptureError if a file cannot be opened.
std::optional<CaptureHost> guessCaptureHost(const std::vector<std::string>& files, uint64_t maxFrames = 200'000);

}  // namespace tcpscope
