#pragma once
// A frame's details in Wireshark's order: frame, link header, IP header, TCP header with every
// option, payload. The bytes come from FrameBytesReader; nothing here reads a file.
#include <optional>

#include "dissect/dissection.hpp"

namespace tcpscope {
struct Connection;
struct IndexedPacket;
}  // namespace tcpscope

namespace tcpscope::dissect {

/// What the dissection knows beyond the frame's bytes: its number, and the initial sequence
/// numbers of the two sides (from the connection), for Wireshark's relative numbers.
struct DissectContext {
    uint32_t frameNumber = 0;
    std::optional<uint32_t> senderBaseSeq;    ///< the sending side's initial sequence number
    std::optional<uint32_t> receiverBaseSeq;  ///< the other side's (for ACK and SACK edges)
};

/// The context of an indexed packet: its frame number and its connection's initial sequence
/// numbers (guessed, as the packet list does, when the SYN was not seen).
DissectContext dissectContextOf(const Connection& connection, const IndexedPacket& packet);

/// The details of `frame`: one top-level row per layer ("Frame", "Ethernet II", "Internet
/// Protocol Version 4", "Transmission Control Protocol", "TCP payload"). A layer cut short by the
/// snapshot length ends with a row saying kPacketSizeLimited; a link type or protocol it does not
/// dissect is said in a row, never guessed. Never reads past the captured bytes.
std::vector<DissectionNode> dissectFrame(const FrameBytes& frame, const DissectContext& context);

/// The TCP header (with its options) starting at `offset` of `frame`, `segmentLength` bytes long
/// by the IP header (header and payload); appends "Transmission Control Protocol" and, when the
/// segment carries data, "TCP payload" to `layers`.
void dissectTcp(const FrameBytes& frame, uint32_t offset, uint32_t segmentLength, const DissectContext& context,
                std::vector<DissectionNode>& layers);

/// The options of a TCP header (`length` bytes at `offset`) as rows under `options`.
void dissectTcpOptions(const FrameBytes& frame, uint32_t offset, uint32_t length, const DissectContext& context,
                       DissectionNode& options);

}  // namespace tcpscope::dissect
