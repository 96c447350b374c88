#include "capture/capture_reader.hpp"

#include <fmt/format.h>

#include "capture/file_byte_order.hpp"
#include "capture/byte_source.hpp"
#include "capture/pcap_reader.hpp"
#include "capture/pcapng_reader.hpp"

namespace tcpscope {

namespace {

constexpr size_t kMagicBytes = 4;

bool isPcapMagic(uint32_t bigEndianMagic) {
    switch (bigEndianMagic) {
    case 0xa1b2c3d4:  // microseconds
    case 0xd4c3b2a1:
    case 0xa1b23c4d:  // nanoseconds
    case 0x4d3cb2a1:
    case 0xa1b2cd34:  // Kuznetzov's patched libpcap
    case 0x34cdb2a1:
        return true;
    default:
        return false;
    }
}

constexpr uint32_t kPcapngMagic = 0x0a0d0d0a;  // a palindrome: the same in either byte order

/// Chooses the reader by the first four (decompressed) bytes.
std::unique_ptr<CaptureReader> openSource(ByteSource source) {
    const uint8_t* magic = source.ensure(kMagicBytes);
    if (magic == nullptr) {
        if (const InputProblem* problem = source.error()) {
            throw CaptureError(*problem);
        }
        std::string reason = source.available() == 0
                                 ? std::string("empty file")
                                 : fmt::format("not a pcap or pcapng file (only {} {})", source.available(),
                                               source.available() == 1 ? "byte" : "bytes");
        if (source.compression() != Compression::None) {
            reason += fmt::format(" after {} decompression", compressionName(source.compression()));
        }
        if (!source.warnings().empty()) {
            reason += "; " + source.warnings().front().reason;
        }
        throw CaptureError(InputProblem{source.name(), 0, reason});
    }
    const uint32_t bigEndianMagic = byteorder::loadBigEndian32(magic);
    if (isPcapMagic(bigEndianMagic)) {
        return std::make_unique<PcapReader>(std::move(source));
    }
    if (bigEndianMagic == kPcapngMagic) {
        return std::make_unique<PcapngReader>(std::move(source));
    }
    throw CaptureError(
        InputProblem{source.name(), 0, fmt::format("not a pcap or pcapng file (magic 0x{:08x})", bigEndianMagic)});
}

}  // namespace

std::unique_ptr<CaptureReader> CaptureReader::open(const std::string& path) {
    return openSource(ByteSource::openFile(path));
}

std::unique_ptr<CaptureReader> CaptureReader::openMemory(std::string name, std::vector<uint8_t> bytes) {
    return openSource(ByteSource::openMemory(std::move(name), std::move(bytes)));
}

const std::vector<std::string>& CaptureReader::sectionComments() const {
    static const std::vector<std::string> kNone;
    return kNone;
}

void CaptureReader::setCustomBlockListener(CustomBlockListener /*listener*/) {}

}  // namespace tcpscope
