#include "capture/pcap_reader.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "capture/file_byte_order.hpp"

namespace tcpscope {

namespace {

constexpr size_t kFileHeaderBytes = 24;
constexpr uint32_t kMicrosecondMagic = 0xa1b2c3d4;
constexpr uint32_t kNanosecondMagic = 0xa1b23c4d;
constexpr uint32_t kKuznetzovMagic = 0xa1b2cd34;  // patched libpcap: 8 more bytes per record header
// The link-type field carries FCS information in its upper bits; the type is the low 16 bits.
constexpr uint32_t kLinkTypeMask = 0x0000ffff;
// Real files often claim a snapshot length smaller than the records they hold (tools that lie,
// tcpdump's own test files), so only a length far beyond the snapshot length counts as corrupt.
constexpr uint32_t kMinCapturedBytesBound = 64 * 1024;

const char* containerName(uint32_t magic) { return magic == kNanosecondMagic ? "pcap-ns" : "pcap"; }

}  // namespace

PcapReader::PcapReader(ByteSource source) : SourceBackedReader(std::move(source), "pcap") {
    const uint8_t* header = source_.ensure(kFileHeaderBytes);
    if (header == nullptr) {
        if (const InputProblem* problem = source_.error()) {
            throw CaptureError(*problem);
        }
        reject(0, fmt::format("file ends inside the pcap file header ({} of {} bytes)", source_.available(),
                              kFileHeaderBytes));
    }
    uint32_t magic = byteorder::load32(header, false);
    if (magic != kMicrosecondMagic && magic != kNanosecondMagic && magic != kKuznetzovMagic) {
        swapped_ = true;
        magic = __builtin_bswap32(magic);
    }
    if (magic != kMicrosecondMagic && magic != kNanosecondMagic && magic != kKuznetzovMagic) {
        reject(0, fmt::format("not a pcap file (magic 0x{:08x})", byteorder::loadBigEndian32(header)));
    }
    format_.container = containerName(magic);
    nanoseconds_ = magic == kNanosecondMagic;
    recordHeaderBytes_ = magic == kKuznetzovMagic ? 24 : 16;

    const uint16_t versionMajor = byteorder::load16(header + 4, swapped_);
    const uint16_t versionMinor = byteorder::load16(header + 6, swapped_);
    if (versionMajor < 2) {
        reject(4, fmt::format("unsupported pcap format version {}.{}", versionMajor, versionMinor));
    }
    lengthsSwapped_ = versionMajor == 2 && versionMinor < 3;
    lengthsMaybeSwapped_ = versionMajor == 2 && versionMinor == 3;
    snapLength_ = byteorder::load32(header + 16, swapped_);
    format_.snapLength = snapLength_;
    linkType_ = byteorder::load32(header + 20, swapped_) & kLinkTypeMask;
    if (snapLength_ > 0 && snapLength_ < kMaxCapturedBytes) {
        maxCapturedBytes_ = std::min(kMaxCapturedBytes, std::max(kMinCapturedBytesBound, 2 * snapLength_));
    }
    source_.consume(kFileHeaderBytes);
}

void PcapReader::finish(uint64_t recordOffset, const char* what) {
    done_ = true;
    const size_t left = source_.available();
    if (left > 0 && source_.error() == nullptr) {
        endInsideRecord(
            recordOffset, left,
            fmt::format("file ends {} into a packet {}; the partial record is ignored", bytesText(left), what));
    }
}

bool PcapReader::next(RawPacket& packet) {
    if (done_) {
        return false;
    }
    const uint64_t recordOffset = source_.offset();
    const uint8_t* header = source_.ensure(recordHeaderBytes_);
    if (header == nullptr) {
        finish(recordOffset, "record header");
        return false;
    }
    const uint32_t seconds = byteorder::load32(header, swapped_);
    const uint32_t fraction = byteorder::load32(header + 4, swapped_);
    uint32_t capturedLength = byteorder::load32(header + 8, swapped_);
    uint32_t originalLength = byteorder::load32(header + 12, swapped_);
    if (lengthsSwapped_ || (lengthsMaybeSwapped_ && capturedLength > originalLength)) {
        std::swap(capturedLength, originalLength);
    }
    if (capturedLength > maxCapturedBytes_) {
        done_ = true;
        source_.fail(recordOffset,
                     fmt::format("packet record claims {} captured bytes, more than the {} this file allows "
                                 "(snapshot length {}); the file is corrupt from here",
                                 capturedLength, maxCapturedBytes_, snapLength_));
        return false;
    }
    const uint8_t* record = source_.ensure(recordHeaderBytes_ + capturedLength);
    if (record == nullptr) {
        finish(recordOffset, "record");
        return false;
    }
    if (capturedLength > snapLength_ && snapLength_ != 0 && !warnedAboveSnapLength_) {
        warnedAboveSnapLength_ = true;
        source_.warn(recordOffset, fmt::format("packet record of {} captured bytes is longer than the snapshot "
                                               "length of {} (reported once)",
                                               capturedLength, snapLength_));
    }
    const int64_t fractionNs = nanoseconds_ ? int64_t{fraction} : int64_t{fraction} * 1000;
    packet.tsNs = int64_t{seconds} * 1'000'000'000 + fractionNs;
    packet.capturedLength = capturedLength;
    packet.originalLength = originalLength;
    packet.linkType = linkType_;
    packet.interfaceId = 0;
    packet.recordOffset = recordOffset;
    packet.data = record + recordHeaderBytes_;
    packet.comment = {};
    packet.process = nullptr;
    packet.direction = PacketDirection::Unknown;
    readPktapProcess(packet);
    source_.consume(recordHeaderBytes_ + capturedLength);
    return true;
}

}  // namespace tcpscope
