#include "dissect/frame_bytes_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "capture/byte_source.hpp"
#include "capture/file_byte_order.hpp"

namespace tcpscope::dissect {

namespace {

constexpr uint32_t kPcapMicroseconds = 0xA1B2C3D4;
constexpr uint32_t kPcapNanoseconds = 0xA1B23C4D;
constexpr uint32_t kPcapngSectionHeader = 0x0A0D0D0A;
constexpr uint32_t kPcapngByteOrderMagic = 0x1A2B3C4D;
constexpr uint32_t kPcapngInterfaceDescription = 1;
constexpr uint32_t kPcapngObsoletePacket = 2;
constexpr uint32_t kPcapngSimplePacket = 3;
constexpr uint32_t kPcapngEnhancedPacket = 6;
constexpr size_t kPcapFileHeaderBytes = 24;
constexpr size_t kPcapRecordHeaderBytes = 16;
constexpr size_t kPcapngPacketHeaderBytes = 28;  // block type and length, then EPB's fixed fields
// A frame larger than this is no frame a capture tool wrote (the readers bound records alike).
constexpr uint32_t kLargestFrameBytes = 1U << 24;
constexpr size_t kReadBufferBytes = size_t{64} << 10;
constexpr size_t kWalkChunkBytes = size_t{1} << 20;

}  // namespace

FrameBytesReader::FrameBytesReader(std::string path) : path_(std::move(path)) {
    file_ = path_ == "-" ? nullptr : std::fopen(path_.c_str(), "rb");
    if (file_ == nullptr) {
        throw CaptureError(
            InputProblem{path_, 0, path_ == "-" ? "standard input cannot be read again" : std::strerror(errno)});
    }
    // A frame and its header in one read: glibc seeks inside its buffer without a system call.
    std::setvbuf(file_, nullptr, _IOFBF, kReadBufferBytes);
    std::array<uint8_t, kPcapFileHeaderBytes> header{};
    const size_t got = std::fread(header.data(), 1, header.size(), file_);
    const uint32_t magic = got >= 4 ? byteorder::load32(header.data(), false) : 0;
    if (got == header.size() &&
        (magic == kPcapMicroseconds || magic == kPcapNanoseconds || __builtin_bswap32(magic) == kPcapMicroseconds ||
         __builtin_bswap32(magic) == kPcapNanoseconds)) {
        mode_ = Mode::Pcap;
        // The byte order of the file's values: a big-endian file's are swapped on this little-endian machine.
        pcapBigEndian_ = __builtin_bswap32(magic) == kPcapMicroseconds || __builtin_bswap32(magic) == kPcapNanoseconds;
        pcapLinkType_ = byteorder::load32(header.data() + 20, pcapBigEndian_) & 0xFFFF;
    } else if (magic == kPcapngSectionHeader) {
        mode_ = Mode::Pcapng;
    } else {
        std::fclose(file_);
        file_ = nullptr;
        mode_ = Mode::Sequential;  // compressed, or a format only the readers know
        sequential_ = CaptureReader::open(path_);
    }
}

FrameBytesReader::~FrameBytesReader() {
    if (file_ != nullptr) {
        std::fclose(file_);
    }
}

std::optional<FrameBytes> FrameBytesReader::fail(std::string reason) {
    problem_ = std::move(reason);
    return std::nullopt;
}

bool FrameBytesReader::readAt(uint64_t offset, void* destination, size_t length) {
    return ::fseeko(file_, static_cast<off_t>(offset), SEEK_SET) == 0 &&
           std::fread(destination, 1, length, file_) == length;
}

std::optional<FrameBytes> FrameBytesReader::read(uint64_t recordOffset) {
    problem_.clear();
    switch (mode_) {
        case Mode::Pcap: return readPcap(recordOffset);
        case Mode::Pcapng: return readPcapng(recordOffset);
        case Mode::Sequential: return readSequential(recordOffset);
    }
    return std::nullopt;
}

std::optional<FrameBytes> FrameBytesReader::readPcap(uint64_t recordOffset) {
    std::array<uint8_t, kPcapRecordHeaderBytes> header{};
    if (recordOffset < kPcapFileHeaderBytes || !readAt(recordOffset, header.data(), header.size())) {
        return fail(fmt::format("no packet record at offset {} (the file ends before it)", recordOffset));
    }
    FrameBytes frame;
    const uint32_t captured = byteorder::load32(header.data() + 8, pcapBigEndian_);
    frame.originalLength = byteorder::load32(header.data() + 12, pcapBigEndian_);
    if (captured > kLargestFrameBytes) {
        return fail(fmt::format("the record at offset {} claims {} bytes: the file changed?", recordOffset, captured));
    }
    frame.data.resize(captured);
    if (std::fread(frame.data.data(), 1, captured, file_) != captured) {
        return fail(fmt::format("the file ends inside the record at offset {}", recordOffset));
    }
    frame.originalLength = std::max(frame.originalLength, captured);
    frame.linkType = pcapLinkType_;
    frame.recordOffset = recordOffset;
    return frame;
}

bool FrameBytesReader::walkPcapngTo(uint64_t recordOffset) {
    // The headers are read from large chunks, not one seek per block: the walk over a 3 M-block
    // file took 1 s with a seek and a 12-byte read per block.
    std::vector<uint8_t> chunk;
    uint64_t chunkStart = 0;
    size_t chunkLength = 0;
    constexpr size_t kHeaderBytes = 12;
    while (walkedTo_ <= recordOffset) {
        if (walkedTo_ < chunkStart || walkedTo_ + kHeaderBytes > chunkStart + chunkLength) {
            chunk.resize(kWalkChunkBytes);
            if (::fseeko(file_, static_cast<off_t>(walkedTo_), SEEK_SET) != 0) {
                return false;
            }
            chunkLength = std::fread(chunk.data(), 1, chunk.size(), file_);
            chunkStart = walkedTo_;
            if (chunkLength < kHeaderBytes) {
                return false;
            }
        }
        const uint8_t* header = chunk.data() + (walkedTo_ - chunkStart);
        const uint32_t type = byteorder::load32(header, false);
        if (type == kPcapngSectionHeader) {
            const bool bigEndian = byteorder::load32(header + 8, false) != kPcapngByteOrderMagic;
            sections_.push_back(Section{walkedTo_, bigEndian, {}});
        }
        if (sections_.empty()) {
            return false;
        }
        Section& section = sections_.back();
        const uint32_t blockType = byteorder::load32(header, section.bigEndian);
        const uint32_t blockLength = byteorder::load32(header + 4, section.bigEndian);
        if (blockType == kPcapngInterfaceDescription) {
            section.linkTypes.push_back(byteorder::load16(header + 8, section.bigEndian));
        }
        if (blockLength < kHeaderBytes || blockLength % 4 != 0) {
            return false;
        }
        walkedTo_ += blockLength;
    }
    return true;
}

std::optional<FrameBytes> FrameBytesReader::readPcapng(uint64_t recordOffset) {
    if (!walkPcapngTo(recordOffset)) {
        return fail(fmt::format("the blocks of the file cannot be followed to offset {}", recordOffset));
    }
    // The section the record is in: the last one starting before it. Its interfaces were all
    // described before the record (pcapng says so), so the walk has seen them.
    const auto after = std::upper_bound(sections_.begin(), sections_.end(), recordOffset,
                                        [](uint64_t offset, const Section& section) { return offset < section.start; });
    if (after == sections_.begin()) {
        return fail(fmt::format("no section holds offset {}", recordOffset));
    }
    const Section& section = *std::prev(after);
    std::array<uint8_t, kPcapngPacketHeaderBytes> header{};
    if (!readAt(recordOffset, header.data(), 12)) {
        return fail(fmt::format("no packet block at offset {}", recordOffset));
    }
    const uint32_t type = byteorder::load32(header.data(), section.bigEndian);
    const uint32_t blockLength = byteorder::load32(header.data() + 4, section.bigEndian);
    FrameBytes frame;
    frame.recordOffset = recordOffset;
    uint32_t interface = 0;
    uint32_t captured = 0;
    uint64_t dataOffset = 0;
    if (type == kPcapngSimplePacket) {
        frame.originalLength = byteorder::load32(header.data() + 8, section.bigEndian);
        captured = std::min(frame.originalLength, blockLength >= 16 ? blockLength - 16 : 0);
        dataOffset = recordOffset + 12;
    } else if (type == kPcapngEnhancedPacket || type == kPcapngObsoletePacket) {
        if (!readAt(recordOffset, header.data(), header.size())) {
            return fail(fmt::format("the file ends inside the packet block at offset {}", recordOffset));
        }
        interface = type == kPcapngEnhancedPacket ? byteorder::load32(header.data() + 8, section.bigEndian)
                                                  : byteorder::load16(header.data() + 8, section.bigEndian);
        captured = byteorder::load32(header.data() + 20, section.bigEndian);
        frame.originalLength = byteorder::load32(header.data() + 24, section.bigEndian);
        dataOffset = recordOffset + kPcapngPacketHeaderBytes;
        if (captured > blockLength) {
            return fail(fmt::format("the packet block at offset {} is inconsistent", recordOffset));
        }
    } else {
        return fail(fmt::format("the block at offset {} is no packet (type {})", recordOffset, type));
    }
    if (interface >= section.linkTypes.size()) {
        return fail(fmt::format("the packet at offset {} names interface {}, not described before it", recordOffset,
                                interface));
    }
    if (captured > kLargestFrameBytes) {
        return fail(fmt::format("the block at offset {} claims {} bytes: the file changed?", recordOffset, captured));
    }
    frame.linkType = section.linkTypes[interface];
    frame.data.resize(captured);
    if (!readAt(dataOffset, frame.data.data(), captured)) {
        return fail(fmt::format("the file ends inside the packet block at offset {}", recordOffset));
    }
    frame.originalLength = std::max(frame.originalLength, captured);
    return frame;
}

std::optional<FrameBytes> FrameBytesReader::readSequential(uint64_t recordOffset) {
    if (sequentialStarted_ && recordOffset <= sequentialAt_) {
        sequential_ = CaptureReader::open(path_);  // a compressed stream only goes forward
        sequentialStarted_ = false;
    }
    RawPacket raw;
    while (sequential_->next(raw)) {
        sequentialStarted_ = true;
        sequentialAt_ = raw.recordOffset;
        if (raw.recordOffset == recordOffset) {
            FrameBytes frame;
            frame.data.assign(raw.data, raw.data + raw.capturedLength);
            frame.originalLength = std::max(raw.originalLength, raw.capturedLength);
            frame.linkType = raw.linkType;
            frame.recordOffset = recordOffset;
            return frame;
        }
        if (raw.recordOffset > recordOffset) {
            break;
        }
    }
    return fail(fmt::format("no frame record starts at offset {}", recordOffset));
}

}  // namespace tcpscope::dissect
