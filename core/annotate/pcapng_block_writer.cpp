#include "annotate/pcapng_block_writer.hpp"

#include <algorithm>
#include <cstring>

namespace tcpscope {

namespace {

constexpr uint32_t kSectionHeader = 0x0a0d0d0a;
constexpr uint32_t kInterfaceDescription = 1;
constexpr uint32_t kEnhancedPacket = 6;
constexpr uint32_t kByteOrderMagic = 0x1a2b3c4d;
constexpr uint16_t kOptEnd = 0;
constexpr uint16_t kOptComment = 1;
constexpr uint16_t kOptUserApplication = 4;
constexpr uint16_t kOptTsResolution = 9;
constexpr size_t kMaxOptionBytes = 0xffff;

}  // namespace

void PcapngBlockWriter::begin(uint32_t type) {
    block_.clear();
    put32(type);
    put32(0);  // total length, filled in by finish()
}

void PcapngBlockWriter::finish() {
    putOption(kOptEnd, {});
    const auto total = static_cast<uint32_t>(block_.size() + 4);
    put32(total);
    std::memcpy(block_.data() + 4, &total, 4);
    if (ok_ && std::fwrite(block_.data(), 1, block_.size(), out_) != block_.size()) {
        ok_ = false;
    }
    bytes_ += block_.size();
}

void PcapngBlockWriter::putRaw(const void* bytes, size_t length) {
    // resize + memcpy: vector::insert of a byte range trips GCC 12's -O3 bounds warnings.
    const size_t at = block_.size();
    block_.resize(at + length);
    if (length > 0) {
        std::memcpy(block_.data() + at, bytes, length);
    }
}

void PcapngBlockWriter::put16(uint16_t value) { putRaw(&value, sizeof value); }

void PcapngBlockWriter::put32(uint32_t value) { putRaw(&value, sizeof value); }

void PcapngBlockWriter::putOption(uint16_t code, std::span<const uint8_t> value) {
    const size_t length = std::min(value.size(), kMaxOptionBytes);
    put16(code);
    put16(static_cast<uint16_t>(length));
    putRaw(value.data(), length);
    block_.resize((block_.size() + 3) & ~size_t{3}, 0);
}

void PcapngBlockWriter::putText(uint16_t code, std::string_view text) {
    putOption(code, {reinterpret_cast<const uint8_t*>(text.data()), text.size()});
}

void PcapngBlockWriter::writeSection(std::string_view application, const std::vector<std::string>& comments) {
    begin(kSectionHeader);
    put32(kByteOrderMagic);
    put16(1);  // major version
    put16(0);  // minor version
    put32(0xffffffff);  // section length unknown (64 bits of all ones)
    put32(0xffffffff);
    for (const std::string& comment : comments) {
        putText(kOptComment, comment);
    }
    putText(kOptUserApplication, application);
    finish();
}

void PcapngBlockWriter::writeInterface(uint32_t linkType, uint8_t tsResolutionDigits) {
    begin(kInterfaceDescription);
    put16(static_cast<uint16_t>(linkType));
    put16(0);  // reserved
    put32(0);                  // snap length: no limit
    if (tsResolutionDigits != 6) {  // 6 is the default
        putOption(kOptTsResolution, {&tsResolutionDigits, 1});
    }
    finish();
}

void PcapngBlockWriter::writePacket(uint32_t interfaceId, int64_t tsNs, int64_t unitsPerSecond,
                                    std::span<const uint8_t> data, uint32_t originalLength,
                                    const std::vector<std::string_view>& comments) {
    begin(kEnhancedPacket);
    put32(interfaceId);
    const auto units = static_cast<uint64_t>(tsNs / (1'000'000'000 / unitsPerSecond));
    put32(static_cast<uint32_t>(units >> 32));
    put32(static_cast<uint32_t>(units));
    put32(static_cast<uint32_t>(data.size()));
    put32(std::max(originalLength, static_cast<uint32_t>(data.size())));
    putRaw(data.data(), data.size());
    block_.resize((block_.size() + 3) & ~size_t{3}, 0);
    for (std::string_view comment : comments) {
        putText(kOptComment, comment);
    }
    finish();
}

}  // namespace tcpscope
