#pragma once
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tcpscope {

/// Writes the blocks of a pcapng copy (one section, interfaces, enhanced packet blocks with any
/// number of opt_comment options) in the host's byte order through a stdio stream it does not own.
/// Kept apart from capture/pcapng_writer (the live capture's), which writes one comment per packet
/// and nanosecond interfaces only; the two can be merged once both settle.
class PcapngBlockWriter {
public:
    explicit PcapngBlockWriter(std::FILE* out) : out_(out) {}

    /// Section Header Block with shb_userappl and one shb_comment per comment.
    void writeSection(std::string_view application, const std::vector<std::string>& comments);
    /// Interface Description Block; `tsResolutionDigits` is 6 (microseconds) or 9 (nanoseconds).
    void writeInterface(uint32_t linkType, uint8_t tsResolutionDigits);
    /// Enhanced Packet Block; the time is written in the interface's resolution (`unitsPerSecond`).
    void writePacket(uint32_t interfaceId, int64_t tsNs, int64_t unitsPerSecond, std::span<const uint8_t> data,
                     uint32_t originalLength, const std::vector<std::string_view>& comments);

    /// False once a write has failed (the stream's error).
    [[nodiscard]] bool ok() const { return ok_; }
    [[nodiscard]] uint64_t bytesWritten() const { return bytes_; }

private:
    void begin(uint32_t type);
    void finish();
    void putRaw(const void* bytes, size_t length);
    void put16(uint16_t value);
    void put32(uint32_t value);
    void putOption(uint16_t code, std::span<const uint8_t> value);
    void putText(uint16_t code, std::string_view text);

    std::FILE* out_;
    std::vector<uint8_t> block_;
    uint64_t bytes_ = 0;
    bool ok_ = true;
};

}  // namespace tcpscope
