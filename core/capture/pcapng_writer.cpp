#include "capture/pcapng_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace tcpscope {

namespace {

// Block types and option codes of the pcapng specification (draft-ietf-opsawg-pcapng).
constexpr uint32_t kSectionHeaderBlock = 0x0A0D0D0A;
constexpr uint32_t kInterfaceDescriptionBlock = 0x00000001;
constexpr uint32_t kInterfaceStatisticsBlock = 0x00000005;
constexpr uint32_t kEnhancedPacketBlock = 0x00000006;
constexpr uint32_t kByteOrderMagic = 0x1A2B3C4D;

constexpr uint16_t kOptComment = 1;
constexpr uint16_t kShbHardware = 2;
constexpr uint16_t kShbOs = 3;
constexpr uint16_t kShbUserApplication = 4;
constexpr uint16_t kEpbFlags = 2;
constexpr uint16_t kIfName = 2;
constexpr uint16_t kIfDescription = 3;
constexpr uint16_t kIfTsresol = 9;
constexpr uint16_t kIfFilter = 11;
constexpr uint16_t kIfTsoffset = 14;
constexpr uint16_t kIsbStartTime = 2;
constexpr uint16_t kIsbEndTime = 3;
constexpr uint16_t kIsbIfReceived = 4;
constexpr uint16_t kIsbIfDropped = 5;
constexpr uint16_t kIsbOsDropped = 7;
constexpr uint16_t kIsbUserDelivered = 8;

constexpr uint8_t kMaxResolutionDigits = 9;  // finer than nanoseconds cannot be given in tsNs
constexpr uint8_t kLibpcapFilterString = 0;  // first byte of if_filter: a libpcap expression follows
constexpr size_t kMaxOptionBytes = 0xFFFF;   // an option's length field is 16 bits
constexpr size_t kManualFlushBytes = size_t{1} << 20;

}  // namespace

PcapngWriter::PcapngWriter(const std::string& path, const PcapngSectionInfo& section, PcapngFlush flushPolicy)
    : output_(path), flushPolicy_(flushPolicy) {
    writeSectionHeader(section);
}

PcapngWriter::PcapngWriter(int fd, std::string name, const PcapngSectionInfo& section, PcapngFlush flushPolicy)
    : output_(fd, std::move(name)), flushPolicy_(flushPolicy) {
    writeSectionHeader(section);
}

PcapngWriter::PcapngWriter(std::FILE* stream, std::string name, const PcapngSectionInfo& section,
                           PcapngFlush flushPolicy)
    : PcapngWriter(stream != nullptr && std::fflush(stream) == 0 ? ::fileno(stream) : -1, std::move(name), section,
                   flushPolicy) {}

PcapngWriter::~PcapngWriter() {
    try {
        close();
    } catch (const CaptureWriteError&) {
        // Reported only through close(); a destructor cannot throw.
    }
}

void PcapngWriter::writeSectionHeader(const PcapngSectionInfo& section) {
    beginBlock(kSectionHeaderBlock);
    put32(kByteOrderMagic);
    put16(1);  // major version
    put16(0);  // minor version
    put64(~uint64_t{0});  // section length: not given
    for (const std::string& comment : section.comments) {
        putOption(kOptComment, comment);
    }
    putOption(kShbHardware, section.hardware);
    putOption(kShbOs, section.os);
    putOption(kShbUserApplication, section.application);
    putEndOfOptions();
    endBlock();
}

uint32_t PcapngWriter::addInterface(const PcapngInterfaceInfo& interface) {
    requireOpen();
    if (interface.linkType > 0xFFFF) {
        throw std::invalid_argument(fmt::format("link type {} does not fit a pcapng interface block", interface.linkType));
    }
    if (interface.tsResolutionDigits > kMaxResolutionDigits) {
        throw std::invalid_argument(fmt::format("a resolution of 10^-{} s is finer than nanoseconds",
                                                interface.tsResolutionDigits));
    }
    beginBlock(kInterfaceDescriptionBlock);
    put16(static_cast<uint16_t>(interface.linkType));
    put16(0);  // reserved
    put32(interface.snapLength);
    putOption(kIfName, interface.name);
    putOption(kIfDescription, interface.description);
    putOption(kIfTsresol, std::span<const uint8_t>(&interface.tsResolutionDigits, 1));
    if (interface.tsOffsetSeconds != 0) {
        putOption64(kIfTsoffset, static_cast<uint64_t>(interface.tsOffsetSeconds));
    }
    if (!interface.filter.empty()) {
        std::vector<uint8_t> filter{kLibpcapFilterString};
        filter.insert(filter.end(), interface.filter.begin(), interface.filter.end());
        putOption(kIfFilter, filter);
    }
    putEndOfOptions();
    endBlock();
    int64_t nsPerUnit = 1;
    for (uint8_t digit = interface.tsResolutionDigits; digit < kMaxResolutionDigits; ++digit) {
        nsPerUnit *= 10;
    }
    nsPerUnit_.push_back(nsPerUnit);
    return static_cast<uint32_t>(nsPerUnit_.size() - 1);
}

void PcapngWriter::writePacket(const PcapngPacket& packet) {
    requireInterface(packet.interfaceId, "packet");
    if (packet.data.size() > 0xFFFFFFFFu || packet.originalLength < packet.data.size()) {
        throw std::invalid_argument(fmt::format("packet of {} captured bytes with an original length of {}",
                                                packet.data.size(), packet.originalLength));
    }
    beginBlock(kEnhancedPacketBlock);
    put32(packet.interfaceId);
    putTimestamp(packet.tsNs, packet.interfaceId);
    put32(static_cast<uint32_t>(packet.data.size()));
    put32(packet.originalLength);
    putBytes(packet.data);
    putPadding();
    const size_t optionsStart = buffer_.size();
    putOption(kOptComment, packet.comment);
    for (const std::string_view comment : packet.moreComments) {
        putOption(kOptComment, comment);
    }
    if (packet.direction != PacketDirection::Unknown) {
        const uint32_t flags = packet.direction == PacketDirection::Inbound ? 1 : 2;
        putOption(kEpbFlags, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&flags), sizeof flags));
    }
    if (buffer_.size() != optionsStart) {
        putEndOfOptions();
    }
    endBlock();
    ++packets_;
}

void PcapngWriter::writeInterfaceStats(const PcapngInterfaceStats& stats) {
    requireInterface(stats.interfaceId, "statistics");
    beginBlock(kInterfaceStatisticsBlock);
    put32(stats.interfaceId);
    putTimestamp(stats.tsNs, stats.interfaceId);
    if (stats.startNs != 0) {
        putTimestampOption(kIsbStartTime, stats.startNs, stats.interfaceId);
    }
    putTimestampOption(kIsbEndTime, stats.tsNs, stats.interfaceId);
    putOption64(kIsbIfReceived, stats.received);
    putOption64(kIsbIfDropped, stats.droppedByInterface);
    putOption64(kIsbOsDropped, stats.droppedByKernel);
    putOption64(kIsbUserDelivered, stats.delivered);
    putEndOfOptions();
    endBlock();
}

void PcapngWriter::writeCustomBlock(uint32_t type, uint32_t pen, std::span<const uint8_t> data) {
    requireOpen();
    beginBlock(type);
    put32(pen);
    putBytes(data);
    putPadding();
    endBlock();
}

void PcapngWriter::flush() {
    try {
        output_.write(buffer_);
    } catch (const CaptureWriteError&) {
        buffer_.clear();  // lost: bytesWritten() stays the size of the file
        throw;
    }
    buffer_.clear();
}

void PcapngWriter::sync() {
    flush();
    output_.sync();
}

void PcapngWriter::close() {
    if (!output_.isOpen()) {
        return;
    }
    try {
        flush();
    } catch (const CaptureWriteError&) {
        try {
            output_.close();
        } catch (const CaptureWriteError&) {
            // The write error is the one to report.
        }
        throw;
    }
    output_.close();
}

void PcapngWriter::beginBlock(uint32_t type) {
    blockStart_ = buffer_.size();
    put32(type);
    put32(0);  // total length, set by endBlock()
}

void PcapngWriter::endBlock() {
    const auto totalLength = static_cast<uint32_t>(buffer_.size() - blockStart_ + 4);
    std::memcpy(buffer_.data() + blockStart_ + 4, &totalLength, 4);
    put32(totalLength);
    if (flushPolicy_ == PcapngFlush::EveryBlock || buffer_.size() >= kManualFlushBytes) {
        flush();
    }
}

void PcapngWriter::put16(uint16_t value) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
    buffer_.insert(buffer_.end(), bytes, bytes + sizeof value);
}

void PcapngWriter::put32(uint32_t value) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
    buffer_.insert(buffer_.end(), bytes, bytes + sizeof value);
}

void PcapngWriter::put64(uint64_t value) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
    buffer_.insert(buffer_.end(), bytes, bytes + sizeof value);
}

void PcapngWriter::putBytes(std::span<const uint8_t> bytes) { buffer_.insert(buffer_.end(), bytes.begin(), bytes.end()); }

void PcapngWriter::putPadding() { buffer_.resize((buffer_.size() - blockStart_ + 3) / 4 * 4 + blockStart_, 0); }

void PcapngWriter::putOption(uint16_t code, std::span<const uint8_t> value) {
    if (value.empty()) {
        return;
    }
    // A longer value cannot be described by the option's length field: keep its first 64 KiB - 1.
    const size_t length = std::min(value.size(), kMaxOptionBytes);
    put16(code);
    put16(static_cast<uint16_t>(length));
    putBytes(value.first(length));
    putPadding();
}

void PcapngWriter::putOption(uint16_t code, std::string_view text) {
    putOption(code, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void PcapngWriter::putOption64(uint16_t code, uint64_t value) {
    put16(code);
    put16(8);
    put64(value);
}

// A timestamp is two 32-bit words, the high one first, in units of the interface's if_tsresol.
void PcapngWriter::putTimestamp(int64_t tsNs, uint32_t interfaceId) {
    const auto units = static_cast<uint64_t>(tsNs < 0 ? 0 : tsNs / nsPerUnit_[interfaceId]);
    put32(static_cast<uint32_t>(units >> 32));
    put32(static_cast<uint32_t>(units & 0xFFFFFFFFu));
}

void PcapngWriter::putTimestampOption(uint16_t code, int64_t tsNs, uint32_t interfaceId) {
    put16(code);
    put16(8);
    putTimestamp(tsNs, interfaceId);
}

void PcapngWriter::putEndOfOptions() { put32(0); }

void PcapngWriter::requireOpen() const {
    if (!output_.isOpen()) {
        output_.fail(output_.offset(), "the file is already closed");
    }
}

void PcapngWriter::requireInterface(uint32_t interfaceId, const char* what) const {
    requireOpen();
    if (interfaceId >= nsPerUnit_.size()) {
        throw std::invalid_argument(fmt::format("{} of interface {}, but only {} interfaces were described", what,
                                                interfaceId, nsPerUnit_.size()));
    }
}

}  // namespace tcpscope
