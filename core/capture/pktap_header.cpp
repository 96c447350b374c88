#include "capture/pktap_header.hpp"

#include <bit>
#include <cstring>

#include "capture/file_byte_order.hpp"
#include "text/valid_utf8.hpp"

namespace tcpscope {

namespace {

// Offsets in xnu's struct pktap_header (bsd/net/pktap.h; Wireshark's packet-pktap.c reads the same).
constexpr size_t kTypeNextOffset = 4;
constexpr size_t kDltOffset = 8;
constexpr size_t kFlagsOffset = 36;
constexpr size_t kPidOffset = 52;
constexpr size_t kCommandOffset = 56;
constexpr size_t kEffectivePidOffset = 84;
constexpr size_t kEffectiveCommandOffset = 88;
constexpr size_t kCommandBytes = 20;  // MAXCOMLEN + 1, padded to 4
constexpr uint32_t kTypePacket = 1;   // PTH_TYPE_PACKET: a frame follows the header
constexpr uint32_t kFlagDirectionIn = 0x1;
constexpr uint32_t kFlagDirectionOut = 0x2;
constexpr bool kSwapped = std::endian::native == std::endian::big;

std::string_view fixedText(const uint8_t* bytes, size_t capacity) {
    const auto* text = reinterpret_cast<const char*>(bytes);
    return {text, strnlen(text, capacity)};
}

}  // namespace

std::optional<PktapHeader> readPktapHeader(const uint8_t* frame, uint32_t capturedLength) {
    if (capturedLength < PktapHeader::kMinBytes) {
        return std::nullopt;
    }
    PktapHeader header;
    header.length = byteorder::load32(frame, kSwapped);
    if (header.length < PktapHeader::kMinBytes || header.length > capturedLength ||
        byteorder::load32(frame + kTypeNextOffset, kSwapped) != kTypePacket) {
        return std::nullopt;
    }
    header.innerLinkType = byteorder::load32(frame + kDltOffset, kSwapped);
    const uint32_t flags = byteorder::load32(frame + kFlagsOffset, kSwapped);
    if ((flags & kFlagDirectionIn) != 0) {
        header.direction = PacketDirection::Inbound;
    } else if ((flags & kFlagDirectionOut) != 0) {
        header.direction = PacketDirection::Outbound;
    }
    header.pid = static_cast<int32_t>(byteorder::load32(frame + kPidOffset, kSwapped));
    header.command = fixedText(frame + kCommandOffset, kCommandBytes);
    header.effectivePid = static_cast<int32_t>(byteorder::load32(frame + kEffectivePidOffset, kSwapped));
    header.effectiveCommand = fixedText(frame + kEffectiveCommandOffset, kCommandBytes);
    return header;
}

void pktapProcessKey(const PktapHeader& header, std::string& key) {
    key.assign(1, 't');  // a key of its own kind in the reader's table
    key.append(reinterpret_cast<const char*>(&header.pid), sizeof header.pid);
    key.append(header.command);
    key.push_back('\0');
    key.append(reinterpret_cast<const char*>(&header.effectivePid), sizeof header.effectivePid);
    key.append(header.effectiveCommand);
}

PacketProcess pktapProcess(const PktapHeader& header) {
    PacketProcess process;
    if (header.pid > 0) {
        process.pid = header.pid;
    }
    process.command = validUtf8(header.command);
    if (header.effectivePid > 0 && header.effectivePid != header.pid) {
        process.effectivePid = header.effectivePid;
        process.effectiveCommand = validUtf8(header.effectiveCommand);
    }
    return process;
}

}  // namespace tcpscope
