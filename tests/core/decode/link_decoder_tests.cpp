#include <catch2/catch.hpp>

#include <algorithm>

#include "decode/link_decoder.hpp"
#include "decode_test_helpers.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

const SegmentSpec kV4Spec{.seq = 1000, .payloadLength = 10};
const SegmentSpec kV6Spec{.source = "2001:db8::1", .destination = "2001:db8::2", .seq = 1000, .payloadLength = 10};

LinkLayer link(const std::vector<uint8_t>& frame, uint32_t linkType) {
    const auto length = static_cast<uint32_t>(frame.size());
    return decodeLink(FrameView{frame.data(), length, length}, linkType);
}

/// Decodes a frame and checks it is the 10-byte segment of kV4Spec / kV6Spec.
void checkDecodesAsSpec(const std::vector<uint8_t>& frame, uint32_t linkType, uint8_t ipVersion) {
    const Decoded decoded = decodeFrame(frame, linkType);
    REQUIRE(decoded.status == DecodeStatus::Tcp);
    CHECK(decoded.segment.ipVersion == ipVersion);
    CHECK(decoded.segment.seq == 1000);
    CHECK(decoded.segment.payloadLength == 10);
    CHECK(decoded.segment.payloadCaptured == 10);
    CHECK(decoded.segment.source.port == 40000);
    CHECK(decoded.segment.destination.port == 80);
}

/// Replaces the Ethernet type of an untagged IPv4 Ethernet frame with `header` bytes + a new type.
std::vector<uint8_t> withEthernetPayloadHeader(uint16_t etherType, const std::vector<uint8_t>& header) {
    std::vector<uint8_t> frame = buildFrame(kV4Spec);
    frame[12] = static_cast<uint8_t>(etherType >> 8);
    frame[13] = static_cast<uint8_t>(etherType);
    frame.insert(frame.begin() + 14, header.begin(), header.end());
    return frame;
}

}  // namespace

TEST_CASE("Ethernet carries IPv4 and IPv6 after 14 bytes", "[decode][link]") {
    CHECK(link(buildFrame(kV4Spec), linktype::kEthernet).networkOffset == 14);
    CHECK(link(buildFrame(kV4Spec), linktype::kEthernet).ipVersion == 4);
    CHECK(link(buildFrame(kV6Spec), linktype::kEthernet).ipVersion == 6);
    checkDecodesAsSpec(buildFrame(kV4Spec), linktype::kEthernet, 4);
    checkDecodesAsSpec(buildFrame(kV6Spec), linktype::kEthernet, 6);
}

TEST_CASE("802.1Q, 802.1ad and stacked QinQ tags are skipped", "[decode][link]") {
    const std::vector<std::vector<VlanTag>> tagStacks{
        {{0x8100, 10, 0}},
        {{0x88A8, 100, 0}, {0x8100, 10, 3}},
        {{0x9100, 100, 0}, {0x8100, 10, 0}},
        {{0x9100, 1, 0}, {0x9100, 2, 0}, {0x8100, 3, 0}},
        {{0x9200, 5, 0}, {0x8100, 6, 0}},
    };
    for (const auto& tags : tagStacks) {
        const LinkOptions options{.vlanTags = tags};
        const auto frame = buildFrame(kV4Spec, linktype::kEthernet, options);
        CHECK(link(frame, linktype::kEthernet).networkOffset == 14 + 4 * tags.size());
        checkDecodesAsSpec(frame, linktype::kEthernet, 4);
        checkDecodesAsSpec(buildFrame(kV6Spec, linktype::kEthernet, options), linktype::kEthernet, 6);
    }
}

TEST_CASE("a tag cut by the capture is Truncated, an endless tag stack Malformed", "[decode][link]") {
    const auto tagged = buildFrame(kV4Spec, linktype::kEthernet, {.vlanTags = {{0x88A8, 1, 0}, {0x8100, 2, 0}}});
    CHECK(decodeFrame(cutToSnaplen(tagged, 16), linktype::kEthernet, 100).status == DecodeStatus::Truncated);
    CHECK(decodeFrame(cutToSnaplen(tagged, 20), linktype::kEthernet, 100).status == DecodeStatus::Truncated);

    std::vector<VlanTag> tooMany(12, VlanTag{0x8100, 7, 0});
    const auto endless = buildFrame(kV4Spec, linktype::kEthernet, {.vlanTags = tooMany});
    CHECK(decodeFrame(endless).status == DecodeStatus::Malformed);
}

TEST_CASE("non-IP Ethernet frames are NotTcp", "[decode][link]") {
    CHECK(decodeFrame(buildNonIpEthernetFrame(0x0806, std::vector<uint8_t>(28, 1))).status == DecodeStatus::NotTcp);
    CHECK(decodeFrame(buildNonIpEthernetFrame(0x88CC, std::vector<uint8_t>(40, 0))).status == DecodeStatus::NotTcp);
    // An 802.3 frame: the type field is a length (<= 1500), followed by LLC.
    CHECK(decodeFrame(buildNonIpEthernetFrame(46, std::vector<uint8_t>(46, 0x42))).status == DecodeStatus::NotTcp);
    // An ARP frame inside a VLAN tag.
    auto taggedArp = buildNonIpEthernetFrame(0x8100, {0x00, 0x0A, 0x08, 0x06});
    taggedArp.resize(60, 0);
    CHECK(decodeFrame(taggedArp).status == DecodeStatus::NotTcp);
}

TEST_CASE("PPPoE session frames carry IPv4 and IPv6", "[decode][link]") {
    // Version/type 0x11, code 0, session 0x1234, length, then the PPP protocol.
    const std::vector<uint8_t> pppoeIpv4{0x11, 0x00, 0x12, 0x34, 0x00, 0x00, 0x00, 0x21};
    const auto frame = withEthernetPayloadHeader(ethertype::kPppoeSession, pppoeIpv4);
    CHECK(link(frame, linktype::kEthernet).networkOffset == 22);
    checkDecodesAsSpec(frame, linktype::kEthernet, 4);
    // LCP (0xc021) is not IP.
    const std::vector<uint8_t> pppoeLcp{0x11, 0x00, 0x12, 0x34, 0x00, 0x00, 0xC0, 0x21};
    const auto lcp = withEthernetPayloadHeader(ethertype::kPppoeSession, pppoeLcp);
    CHECK(decodeFrame(lcp).status == DecodeStatus::NotTcp);
    CHECK(link(cutToSnaplen(frame, 20), linktype::kEthernet).status == LinkStatus::Truncated);
}

TEST_CASE("MPLS label stacks are followed to IP", "[decode][link]") {
    // Two labels, bottom-of-stack bit on the second.
    const std::vector<uint8_t> twoLabels{0x00, 0x01, 0x00, 0x40, 0x00, 0x02, 0x01, 0x40};
    const auto frame = withEthernetPayloadHeader(ethertype::kMplsUnicast, twoLabels);
    CHECK(link(frame, linktype::kEthernet).networkOffset == 22);
    checkDecodesAsSpec(frame, linktype::kEthernet, 4);
    CHECK(link(cutToSnaplen(frame, 20), linktype::kEthernet).status == LinkStatus::Truncated);
    std::vector<uint8_t> noBottom;
    for (int i = 0; i < 9; ++i) {
        noBottom.insert(noBottom.end(), {0x00, 0x01, 0x00, 0x40});
    }
    CHECK(decodeFrame(withEthernetPayloadHeader(ethertype::kMplsUnicast, noBottom)).status == DecodeStatus::Malformed);
}

TEST_CASE("Linux cooked captures v1 and v2", "[decode][link]") {
    CHECK(link(buildFrame(kV4Spec, linktype::kLinuxSll), linktype::kLinuxSll).networkOffset == 16);
    CHECK(link(buildFrame(kV6Spec, linktype::kLinuxSll2), linktype::kLinuxSll2).networkOffset == 20);
    checkDecodesAsSpec(buildFrame(kV4Spec, linktype::kLinuxSll), linktype::kLinuxSll, 4);
    checkDecodesAsSpec(buildFrame(kV6Spec, linktype::kLinuxSll), linktype::kLinuxSll, 6);
    checkDecodesAsSpec(buildFrame(kV4Spec, linktype::kLinuxSll2, {.sllPacketType = 4}), linktype::kLinuxSll2, 4);
    checkDecodesAsSpec(buildFrame(kV6Spec, linktype::kLinuxSll2), linktype::kLinuxSll2, 6);
    CHECK(link(std::vector<uint8_t>(15, 0), linktype::kLinuxSll).status == LinkStatus::Truncated);
    CHECK(link(std::vector<uint8_t>(19, 0), linktype::kLinuxSll2).status == LinkStatus::Truncated);

    // A VLAN tag kept in front of the packet: protocol 0x8100, then TCI and the real type.
    auto tagged = buildFrame(kV4Spec, linktype::kLinuxSll);
    tagged[14] = 0x81;
    tagged[15] = 0x00;
    tagged.insert(tagged.begin() + 16, {0x00, 0x0A, 0x08, 0x00});
    checkDecodesAsSpec(tagged, linktype::kLinuxSll, 4);
}

TEST_CASE("NULL accepts the AF_ value in either byte order and every AF_INET6", "[decode][link]") {
    for (const bool bigEndian : {false, true}) {
        CAPTURE(bigEndian);
        checkDecodesAsSpec(buildFrame(kV4Spec, linktype::kNull, {.nullBigEndian = bigEndian}), linktype::kNull, 4);
        for (const uint32_t family : {10U, 24U, 28U, 30U}) {
            CAPTURE(family);
            const LinkOptions options{.addressFamily = family, .nullBigEndian = bigEndian};
            const auto frame = buildFrame(kV6Spec, linktype::kNull, options);
            CHECK(link(frame, linktype::kNull).networkOffset == 4);
            checkDecodesAsSpec(frame, linktype::kNull, 6);
        }
        // AF_APPLETALK and friends are not IP.
        const auto other = buildFrame(kV4Spec, linktype::kNull, {.addressFamily = 16, .nullBigEndian = bigEndian});
        CHECK(decodeFrame(other, linktype::kNull).status == DecodeStatus::NotTcp);
    }
    CHECK(link(std::vector<uint8_t>(3, 0), linktype::kNull).status == LinkStatus::Truncated);
}

TEST_CASE("LOOP has the AF_ value in network byte order", "[decode][link]") {
    const auto v4Frame = buildFrame(kV4Spec, linktype::kLoop);
    CHECK(std::vector<uint8_t>(v4Frame.begin(), v4Frame.begin() + 4) == std::vector<uint8_t>{0, 0, 0, 2});
    checkDecodesAsSpec(v4Frame, linktype::kLoop, 4);
    checkDecodesAsSpec(buildFrame(kV6Spec, linktype::kLoop), linktype::kLoop, 6);
    checkDecodesAsSpec(buildFrame(kV6Spec, linktype::kLoop, {.addressFamily = 28}), linktype::kLoop, 6);
    // A little-endian value is recognised too, as Wireshark does.
    auto swapped = v4Frame;
    std::reverse(swapped.begin(), swapped.begin() + 4);
    checkDecodesAsSpec(swapped, linktype::kLoop, 4);
}

TEST_CASE("raw IP link types take the version from the first nibble", "[decode][link]") {
    for (const uint32_t linkType : {linktype::kRaw, 12U, 14U}) {
        CAPTURE(linkType);
        CHECK(link(buildFrame(kV4Spec, linkType), linkType).networkOffset == 0);
        checkDecodesAsSpec(buildFrame(kV4Spec, linkType), linkType, 4);
        checkDecodesAsSpec(buildFrame(kV6Spec, linkType), linkType, 6);
        auto badVersion = buildFrame(kV4Spec, linkType);
        badVersion[0] = 0x55;
        CHECK(decodeFrame(badVersion, linkType).status == DecodeStatus::Malformed);
        CHECK(decodeFrame({}, linkType).status == DecodeStatus::Truncated);
    }
    checkDecodesAsSpec(buildFrame(kV4Spec, linktype::kIpv4), linktype::kIpv4, 4);
    checkDecodesAsSpec(buildFrame(kV6Spec, linktype::kIpv6), linktype::kIpv6, 6);
    // The link type promises a version; a packet of the other one is inconsistent.
    CHECK(decodeFrame(buildFrame(kV6Spec, linktype::kIpv4), linktype::kIpv4).status == DecodeStatus::Malformed);
    CHECK(decodeFrame(buildFrame(kV4Spec, linktype::kIpv6), linktype::kIpv6).status == DecodeStatus::Malformed);
}

TEST_CASE("link type 12 written on OpenBSD is LOOP", "[decode][link]") {
    const auto loopFrame = buildFrame(kV6Spec, linktype::kLoop);
    CHECK(link(loopFrame, 12).networkOffset == 4);
    checkDecodesAsSpec(loopFrame, 12, 6);
}

TEST_CASE("unknown link types are UnsupportedLink", "[decode][link]") {
    const auto frame = buildFrame(kV4Spec);
    for (const uint32_t linkType : {105U, 127U, 9U, 239U, 0xFFFFFFFFU}) {
        CHECK(decodeFrame(frame, linkType).status == DecodeStatus::UnsupportedLink);
        CHECK_FALSE(isSupportedLinkType(linkType));
    }
    for (const uint32_t linkType : {0U, 1U, 12U, 14U, 101U, 108U, 113U, 228U, 229U, 276U}) {
        CHECK(isSupportedLinkType(linkType));
    }
}

TEST_CASE("link type names are tcpdump's", "[decode][link]") {
    CHECK(linkTypeName(linktype::kEthernet) == "EN10MB");
    CHECK(linkTypeName(linktype::kLinuxSll) == "LINUX_SLL");
    CHECK(linkTypeName(linktype::kLinuxSll2) == "LINUX_SLL2");
    CHECK(linkTypeName(linktype::kNull) == "NULL");
    CHECK(linkTypeName(linktype::kLoop) == "LOOP");
    CHECK(linkTypeName(linktype::kRaw) == "RAW");
    CHECK(linkTypeName(12) == "RAW");
    CHECK(linkTypeName(linktype::kIpv4) == "IPV4");
    CHECK(linkTypeName(linktype::kIpv6) == "IPV6");
    CHECK(linkTypeName(127) == "IEEE802_11_RADIO");
    CHECK(linkTypeName(239) == "NFLOG");
    CHECK(linkTypeName(4242) == "LINKTYPE_4242");
}
