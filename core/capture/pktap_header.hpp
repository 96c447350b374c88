#pragma once
// Apple's pktap header (LINKTYPE_PKTAP, 258): macOS's tcpdump -k and "-i pktap" put it before each
// frame, with the interface, the direction and the process that sent or received the packet.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "capture/packet_process.hpp"

namespace tcpscope {

/// What the analysis reads of a pktap header (the first version, xnu's struct pktap_header, which
/// is what libpcap saves; fields in little-endian byte order, as Wireshark reads them).
struct PktapHeader {
    static constexpr uint32_t kMinBytes = 108;  ///< up to and including pth_ecomm

    uint32_t length = 0;         ///< pth_length: the frame of link type `innerLinkType` follows it
    uint32_t innerLinkType = 0;  ///< pth_dlt (DLT_ values; the link decoder takes the historical ones too)
    PacketDirection direction = PacketDirection::Unknown;
    int32_t pid = 0;
    std::string_view command;  ///< pth_comm up to its NUL (not yet valid UTF-8)
    int32_t effectivePid = 0;
    std::string_view effectiveCommand;
};

/// The pktap header at the start of `frame`; nullopt if the frame is shorter than the header, the
/// header is shorter than kMinBytes (or than pth_length says), or it announces no packet.
std::optional<PktapHeader> readPktapHeader(const uint8_t* frame, uint32_t capturedLength);

/// What tells the process of `header` from another (its pids and names), in `key`, whose buffer
/// is reused: for PacketProcessTable::find() before the process is built.
void pktapProcessKey(const PktapHeader& header, std::string& key);

/// The process a pktap header names (with the effective one when it is another), or an unknown one.
PacketProcess pktapProcess(const PktapHeader& header);

}  // namespace tcpscope
