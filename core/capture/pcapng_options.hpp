#pragma once
#include <cstddef>
#include <cstdint>

#include "capture/file_byte_order.hpp"

namespace tcpscope {

/// One option of a pcapng block: its code and its value without padding.
struct PcapngOption {
    uint16_t code = 0;
    uint16_t length = 0;
    const uint8_t* value = nullptr;
};

/// Well-known option codes.
namespace pcapngopt {
inline constexpr uint16_t kEndOfOptions = 0;
inline constexpr uint16_t kComment = 1;
inline constexpr uint16_t kPacketFlags = 2;  ///< epb_flags: bits 0-1 the direction (1 inbound, 2 outbound)
inline constexpr uint16_t kInterfaceTsresol = 9;
inline constexpr uint16_t kInterfaceTsoffset = 14;
// Apple's process information (libpcap's pcap-ng.h on macOS; Wireshark's wiretap/pcapng-darwin):
// an enhanced packet block names its process by the index of a process information block.
inline constexpr uint16_t kProcessName = 2;                ///< pib: the process name
inline constexpr uint16_t kProcessUuid = 4;                ///< pib: the process UUID, 16 bytes
inline constexpr uint16_t kPacketProcessIndex = 0x8001;    ///< epb: 32-bit index of its process information block
inline constexpr uint16_t kPacketEffectiveIndex = 0x8003;  ///< epb: the block of the effective process
}  // namespace pcapngopt

/// Walks the options area at the end of a pcapng block (code, length, value padded to 4 bytes),
/// never reading outside it.
class PcapngOptionReader {
public:
    /// Options in the `length` bytes at `begin`, in the byte order of the section.
    PcapngOptionReader(const uint8_t* begin, size_t length, bool swapped)
        : position_(begin), remaining_(length), swapped_(swapped) {}

    /// The next option. False at opt_endofopt, at the end of the area, or at an option that does
    /// not fit (then malformed() is true).
    bool next(PcapngOption& option) {
        if (remaining_ == 0) {
            return false;
        }
        if (remaining_ < kHeaderBytes) {
            malformed_ = true;
            return false;
        }
        option.code = byteorder::load16(position_, swapped_);
        option.length = byteorder::load16(position_ + 2, swapped_);
        if (option.code == pcapngopt::kEndOfOptions) {
            remaining_ = 0;
            return false;
        }
        if (option.length > remaining_ - kHeaderBytes) {
            malformed_ = true;
            return false;
        }
        option.value = position_ + kHeaderBytes;
        // Writers sometimes leave out the padding of the last option: accept a value that fits.
        const size_t padded = kHeaderBytes + ((size_t{option.length} + 3) & ~size_t{3});
        const size_t step = padded < remaining_ ? padded : remaining_;
        position_ += step;
        remaining_ -= step;
        return true;
    }

    /// True if the walk stopped at an option that runs past the end of the area.
    [[nodiscard]] bool malformed() const { return malformed_; }

private:
    static constexpr size_t kHeaderBytes = 4;

    const uint8_t* position_;
    size_t remaining_;
    bool swapped_;
    bool malformed_ = false;
};

}  // namespace tcpscope
