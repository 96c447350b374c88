// Random and mutated frames for every link type: the decoder must never crash, never read past the
// capture (each input lives in a heap block of exactly its size, so AddressSanitizer sees any overread),
// and never report a payload outside the frame.
#include <catch2/catch.hpp>

#include <memory>
#include <random>

#include "decode_test_helpers.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

const std::vector<uint32_t> kLinkTypes{linktype::kNull,     linktype::kEthernet, 12, 14, linktype::kRaw,
                                       linktype::kLoop,     linktype::kLinuxSll, linktype::kIpv4,
                                       linktype::kIpv6,     linktype::kLinuxSll2, 105};

/// Decodes `bytes` from an exactly sized heap copy and checks the invariants of a Tcp result.
void decodeChecked(const std::vector<uint8_t>& bytes, uint32_t linkType, uint32_t originalLength) {
    const auto exact = std::make_unique<uint8_t[]>(bytes.size());
    std::copy(bytes.begin(), bytes.end(), exact.get());
    RawPacket packet;
    packet.data = bytes.empty() ? nullptr : exact.get();
    packet.capturedLength = static_cast<uint32_t>(bytes.size());
    packet.originalLength = originalLength;
    packet.linkType = linkType;
    TcpSegment segment;
    if (decodePacket(packet, segment) == DecodeStatus::Tcp) {
        REQUIRE(segment.payloadCaptured <= segment.payloadLength);
        // Captured payload lies inside the frame (with none captured the offset may point past it).
        if (segment.payloadCaptured > 0) {
            REQUIRE(uint64_t{segment.payloadOffset} + segment.payloadCaptured <= bytes.size());
        }
        REQUIRE((segment.ipVersion == 4 || segment.ipVersion == 6));
        REQUIRE(segment.options.sackCount <= 4);
        REQUIRE(segment.options.windowScale <= 14);
    }
}

/// Frames worth mutating: every layer the decoder knows, so that flips reach deep code.
std::vector<uint8_t> seedFrame(uint32_t linkType, std::mt19937& random) {
    SegmentSpec spec{.payloadLength = static_cast<uint32_t>(random() % 64)};
    if (random() % 2 == 0) {
        spec.source = "2001:db8::1";
        spec.destination = "2001:db8::2";
        spec.ipv6Extensions = {Ipv6Extension::hopByHop(), Ipv6Extension::fragment(0, false),
                               Ipv6Extension::authentication()};
    } else {
        spec.ipv4Options = {0x94, 0x04, 0, 0};
    }
    spec.options.mss = 1460;
    spec.options.hasTimestamp = true;
    spec.options.sackCount = 2;
    LinkOptions link;
    if (random() % 2 == 0) {
        link.vlanTags = {{0x88A8, 1, 0}, {0x8100, 2, 0}};
    }
    const uint32_t buildable = linkType == 105 ? linktype::kEthernet : linkType;
    return buildFrame(spec, buildable, link);
}

}  // namespace

TEST_CASE("random bytes never crash the decoder", "[decode][garbage]") {
    std::mt19937 random(20240601);
    for (const uint32_t linkType : kLinkTypes) {
        CAPTURE(linkType);
        for (int iteration = 0; iteration < 20000; ++iteration) {
            std::vector<uint8_t> bytes(random() % 160);
            for (auto& byte : bytes) {
                byte = static_cast<uint8_t>(random());
            }
            // Bias the first bytes towards plausible headers so the random data gets past the link layer.
            if (!bytes.empty() && iteration % 2 == 0) {
                bytes[0] = static_cast<uint8_t>((random() % 2 == 0 ? 0x40 : 0x60) | (random() % 16));
            }
            decodeChecked(bytes, linkType, static_cast<uint32_t>(random() % 3 == 0 ? 0 : random()));
        }
    }
}

TEST_CASE("mutated real-looking frames never crash the decoder", "[decode][garbage]") {
    std::mt19937 random(7);
    for (const uint32_t linkType : kLinkTypes) {
        CAPTURE(linkType);
        for (int iteration = 0; iteration < 5000; ++iteration) {
            std::vector<uint8_t> frame = seedFrame(linkType, random);
            const uint32_t flips = 1 + random() % 6;
            for (uint32_t flip = 0; flip < flips; ++flip) {
                frame[random() % frame.size()] = static_cast<uint8_t>(random());
            }
            const auto originalLength = static_cast<uint32_t>(frame.size());
            if (random() % 3 == 0) {
                frame.resize(random() % (frame.size() + 1));
            }
            decodeChecked(frame, linkType, originalLength);
        }
    }
}

TEST_CASE("every prefix of every kind of frame decodes safely", "[decode][garbage]") {
    std::mt19937 random(99);
    for (const uint32_t linkType : kLinkTypes) {
        CAPTURE(linkType);
        for (int variant = 0; variant < 8; ++variant) {
            const std::vector<uint8_t> frame = seedFrame(linkType, random);
            for (size_t length = 0; length <= frame.size(); ++length) {
                decodeChecked(cutToSnaplen(frame, static_cast<uint32_t>(length)), linkType,
                              static_cast<uint32_t>(frame.size()));
            }
        }
    }
}
