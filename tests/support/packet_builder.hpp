#pragma once
// Builds Ethernet / Linux cooked / loopback / raw IP frames carrying one TCP segment, for tests of
// every core stage. Frames are byte-exact: correct IP lengths, IPv4 header checksum and TCP
// checksum, so tshark and tcpdump read them as real traffic.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capture/raw_packet.hpp"
#include "decode/decoded_packet.hpp"

namespace tcpscope::test {

/// One IPv6 extension header to place between the IPv6 header and TCP, in order.
/// The builder writes the "next header" and "length" bytes; `body` is what follows them.
struct Ipv6Extension {
    uint8_t type = 0;            ///< 0 hop-by-hop, 43 routing, 44 fragment, 51 AH, 60 destination options, 135 mobility
    std::vector<uint8_t> body{}; ///< bytes after next-header and length; padded with zeros to the header's unit

    /// A hop-by-hop options header (8 bytes, PadN).
    static Ipv6Extension hopByHop();
    /// A destination options header (8 bytes, PadN).
    static Ipv6Extension destinationOptions();
    /// A routing header with no segments left (routing type 0, 8 bytes), as a node past the last hop sees it.
    static Ipv6Extension routing();
    /// A fragment header; `offsetBytes` must be a multiple of 8.
    static Ipv6Extension fragment(uint32_t offsetBytes, bool moreFragments, uint32_t identification = 0x1234);
    /// An authentication header with a 4-byte ICV (length unit is 4 bytes, unlike the others).
    static Ipv6Extension authentication();
};

/// One TCP segment with its IP header. Defaults give an IPv4 ACK from 10.0.0.1:40000 to 10.0.0.2:80.
/// IPv6 is used when the addresses contain ':'.
struct SegmentSpec {
    std::string source = "10.0.0.1";
    uint16_t sourcePort = 40000;
    std::string destination = "10.0.0.2";
    uint16_t destinationPort = 80;
    uint32_t seq = 0;
    uint32_t ack = 0;
    uint16_t flags = tcpflag::kAck;
    uint16_t window = 65535;
    uint32_t payloadLength = 0;           ///< payload bytes, filled with a pattern (see payloadByte())
    TcpOptions options{};                 ///< encoded when set: MSS, window scale, SACK-permitted, timestamps, SACK
    std::vector<uint8_t> extraTcpOptions{};  ///< raw option bytes after the encoded ones (malformed-option tests)
    std::vector<uint8_t> payload{};       ///< explicit payload bytes; when not empty, replaces payloadLength
    uint8_t ttl = 64;                     ///< TTL or hop limit
    uint16_t ipId = 0;                    ///< IPv4 identification
    uint8_t ipProtocol = 6;               ///< IPv4 protocol / last IPv6 next header (17 for a "UDP" packet)
    std::vector<uint8_t> ipv4Options{};   ///< IPv4 options, padded with EOL to a multiple of 4 (at most 40)
    std::vector<Ipv6Extension> ipv6Extensions{};  ///< IPv6 extension headers before TCP
    /// Written instead of the computed IPv4 total length / IPv6 payload length (0 = TSO / BIG TCP).
    std::optional<uint16_t> ipLengthOverride{};
};

/// An 802.1Q / 802.1ad tag.
struct VlanTag {
    uint16_t tpid = 0x8100;  ///< 0x8100 (802.1Q), 0x88a8 (802.1ad S-tag) or 0x9100 (old QinQ)
    uint16_t vlanId = 100;
    uint8_t priority = 0;
};

/// Link-layer details for wrapInLink() and buildFrame().
struct LinkOptions {
    std::vector<VlanTag> vlanTags{}; ///< Ethernet only: tags outermost first (two tags = QinQ)
    bool padToEthernetMinimum = false;  ///< Ethernet only: pad the frame with zeros to 60 bytes like a NIC does
    uint32_t addressFamily = 0;      ///< NULL / LOOP AF_ value; 0 = 2 for IPv4, 30 (NULL) / 24 (LOOP) for IPv6
    bool nullBigEndian = false;      ///< NULL: write the AF_ value big-endian (capture on a big-endian host)
    uint16_t sllPacketType = 0;      ///< LINUX_SLL / SLL2 packet type: 0 to us, 4 sent by us, ...
};

/// The value of payload byte `index` in built frames: a repeating pattern, so cut or shifted data shows.
uint8_t payloadByte(uint32_t index);

/// IP header(s) + TCP header + payload, without a link layer.
std::vector<uint8_t> buildIpPacket(const SegmentSpec& spec);

/// Puts an IP packet (version from its first nibble) behind the link header of `linkType`
/// (EN10MB, NULL, LOOP, LINUX_SLL, LINUX_SLL2, RAW, IPV4, IPV6, or the DLT values 12 and 14).
/// Throws std::invalid_argument for other link types.
std::vector<uint8_t> wrapInLink(const std::vector<uint8_t>& ipPacket, uint32_t linkType = linktype::kEthernet,
                                const LinkOptions& link = {});

/// One complete frame: buildIpPacket() wrapped in the link layer.
std::vector<uint8_t> buildFrame(const SegmentSpec& spec, uint32_t linkType = linktype::kEthernet,
                                const LinkOptions& link = {});

/// An ICMP "fragmentation needed" (type 3 code 4; ICMPv6 "packet too big", type 2, for IPv6) from
/// `router` to the sender of `refused`, saying its next hop takes `nextHopMtu` bytes and quoting the
/// first `quotedBytes` of the refused segment's IP packet (RFC 792 promises the IP header and 8
/// bytes; Linux quotes what fits in 576 bytes). IP header included, no link layer.
std::vector<uint8_t> buildPacketTooBig(const SegmentSpec& refused, const std::string& router, uint32_t nextHopMtu,
                                       uint32_t quotedBytes = 548);

/// An ICMP "destination unreachable" (type 3; ICMPv6 type 1 for IPv6) with `code` from `router` to the
/// sender of `refused`, quoting the first `quotedBytes` of its IP packet (a SYN a firewall rejects with
/// code 13, "communication administratively prohibited", say). IP header included, no link layer.
std::vector<uint8_t> buildDestinationUnreachable(const SegmentSpec& refused, const std::string& router, uint8_t code,
                                                 uint32_t quotedBytes = 548);

/// An Ethernet frame carrying something other than IP (`etherType` 0x0806 = ARP, ...).
std::vector<uint8_t> buildNonIpEthernetFrame(uint16_t etherType, const std::vector<uint8_t>& payload);

/// Splits an IP packet into fragments of at most `fragmentPayloadBytes` (rounded down to a multiple of 8)
/// of the IP payload each. IPv4 uses the MF flag and offset; IPv6 appends a fragment header after the
/// unfragmentable part (hop-by-hop, routing, and destination options before a routing header).
std::vector<std::vector<uint8_t>> fragmentIpPacket(const std::vector<uint8_t>& ipPacket,
                                                   uint32_t fragmentPayloadBytes, uint32_t identification = 0x1234);

/// The first `snaplen` bytes of `frame` (a capture with a snapshot length). The original length of the
/// frame must then be given to asRaw() / BuiltPacket::originalLength.
std::vector<uint8_t> cutToSnaplen(const std::vector<uint8_t>& frame, uint32_t snaplen);

/// A RawPacket viewing `frame` (which must outlive it). `originalLength` 0 means frame.size().
RawPacket asRaw(const std::vector<uint8_t>& frame, int64_t tsNs = 0, uint32_t linkType = linktype::kEthernet,
                uint32_t originalLength = 0);

/// A frame with its capture time and link type, as a capture reader would deliver it.
struct BuiltPacket {
    std::vector<uint8_t> bytes{};
    int64_t tsNs = 0;
    uint32_t linkType = linktype::kEthernet;
    uint32_t originalLength = 0;  ///< 0 = bytes.size()

    /// A RawPacket viewing `bytes`; valid while this BuiltPacket lives and is not modified.
    [[nodiscard]] RawPacket raw() const;
};

/// buildFrame() with a timestamp.
BuiltPacket buildPacket(const SegmentSpec& spec, int64_t tsNs, uint32_t linkType = linktype::kEthernet,
                        const LinkOptions& link = {});

// Pcap files (implemented in pcap_file_writer.cpp).

/// Header fields of a classic pcap file.
struct PcapFileOptions {
    uint32_t linkType = linktype::kEthernet;
    uint32_t snaplen = 262144;
    bool nanosecond = true;   ///< magic a1b23c4d (ns timestamps) instead of a1b2c3d4 (us timestamps)
    bool bigEndian = false;   ///< write all header fields big-endian, as a big-endian host would
};

/// The bytes of a classic pcap file holding `packets` (their own linkType is ignored; the file has one).
std::vector<uint8_t> pcapFileBytes(const std::vector<BuiltPacket>& packets, const PcapFileOptions& options = {});

/// Writes pcapFileBytes() to `path`. Throws std::runtime_error if the file cannot be written.
void writePcapFile(const std::filesystem::path& path, const std::vector<BuiltPacket>& packets,
                   const PcapFileOptions& options = {});

/// A path in the system temporary folder that no other call (in any process) returns; the file is not created.
std::filesystem::path uniqueTempPath(std::string_view stem, std::string_view extension = ".pcap");

}  // namespace tcpscope::test
