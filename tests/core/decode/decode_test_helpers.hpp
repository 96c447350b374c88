#pragma once
// Shared by the decode tests: decode a built frame in one call, and print DecodeStatus in failures.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "decode/packet_decoder.hpp"
#include "support/packet_builder.hpp"

namespace Catch {
template <>
struct StringMaker<tcpscope::DecodeStatus> {
    static std::string convert(tcpscope::DecodeStatus status) {
        return std::string(tcpscope::decodeStatusName(status));
    }
};
}  // namespace Catch

namespace tcpscope::test {

/// The outcome of decoding one frame.
struct Decoded {
    DecodeStatus status = DecodeStatus::Malformed;
    TcpSegment segment;
};

/// Decodes `frame` as a capture of `linkType` whose original length was `originalLength` (0 = frame size).
inline Decoded decodeFrame(const std::vector<uint8_t>& frame, uint32_t linkType = linktype::kEthernet,
                           uint32_t originalLength = 0) {
    Decoded decoded;
    decoded.status = decodePacket(asRaw(frame, 0, linkType, originalLength), decoded.segment);
    return decoded;
}

}  // namespace tcpscope::test
