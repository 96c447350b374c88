#include "capture/pcapng_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

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
constexpr uint16_t kIfName = 2;
constexpr uint16_t kIfDescription = 3;
constexpr uint16_t kIfTsresol = 9;
constexpr uint16_t kIfFilter = 11;
constexpr uint16_t kIsbStartTime = 2;
constexpr uint16_t kIsbEndTime = 3;
constexpr uint16_t kIsbIfReceived = 4;
constexpr uint16_t kIsbIfDropped = 5;
constexpr uint16_t kIsbOsDropped = 7;
constexpr uint16_t kIsbUserDelivered = 8;

constexpr uint8_t kNanosecondResolution = 9;
constexpr uint8_t kLibpcapFilterString = 0;  // first byte of if_filter: a libpcap expression follows
constexpr size_t kMaxOptionBytes = 0xFFFF;   // an option's length field is 16 bits
constexpr size_t kManualFlushBytes = size_t{1} << 20;

std::string systemReason(int error) { return std::strerror(error); }

}  // namespace

PcapngWriteError::PcapngWriteError(InputProblem problem)
    : std::runtime_error(problem.describe()), problem_(std::move(problem)) {}

PcapngWriter::PcapngWriter(const std::string& path, const PcapngSectionInfo& section, PcapngFlush flushPolicy)
    : name_(path), flushPolicy_(flushPolicy) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) {
        fail(0, "cannot create the file: " + systemReason(errno));
    }
    ownsFd_ = true;
    try {
        writeSectionHeader(section);
    } catch (const PcapngWriteError&) {
        ::close(fd_);
        fd_ = -1;
        throw;
    }
}

PcapngWriter::PcapngWriter(int fd, std::string name, const PcapngSectionInfo& section, PcapngFlush flushPolicy)
    : name_(std::move(name)), fd_(fd), flushPolicy_(flushPolicy) {
    if (fd_ < 0) {
        fail(0, "no open file descriptor to write to");
    }
    writeSectionHeader(section);
}

PcapngWriter::PcapngWriter(std::FILE* stream, std::string name, const PcapngSectionInfo& section,
                           PcapngFlush flushPolicy)
    : PcapngWriter(stream != nullptr && std::fflush(stream) == 0 ? ::fileno(stream) : -1, std::move(name), section,
                   flushPolicy) {}

PcapngWriter::~PcapngWriter() {
    try {
        close();
    } catch (const PcapngWriteError&) {
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
    beginBlock(kInterfaceDescriptionBlock);
    put16(static_cast<uint16_t>(interface.linkType));
    put16(0);  // reserved
    put32(interface.snapLength);
    putOption(kIfName, interface.name);
    putOption(kIfDescription, interface.description);
    const uint8_t resolution = kNanosecondResolution;
    putOption(kIfTsresol, std::span<const uint8_t>(&resolution, 1));
    if (!interface.filter.empty()) {
        std::vector<uint8_t> filter{kLibpcapFilterString};
        filter.insert(filter.end(), interface.filter.begin(), interface.filter.end());
        putOption(kIfFilter, filter);
    }
    putEndOfOptions();
    endBlock();
    return interfaceCount_++;
}

void PcapngWriter::writePacket(const PcapngPacket& packet) {
    requireOpen();
    if (packet.interfaceId >= interfaceCount_) {
        throw std::invalid_argument(fmt::format("packet of interface {}, but only {} interfaces were described",
                                                packet.interfaceId, interfaceCount_));
    }
    if (packet.data.size() > 0xFFFFFFFFu || packet.originalLength < packet.data.size()) {
        throw std::invalid_argument(fmt::format("packet of {} captured bytes with an original length of {}",
                                                packet.data.size(), packet.originalLength));
    }
    beginBlock(kEnhancedPacketBlock);
    put32(packet.interfaceId);
    putTimestamp(packet.tsNs);
    put32(static_cast<uint32_t>(packet.data.size()));
    put32(packet.originalLength);
    putBytes(packet.data);
    putPadding();
    if (!packet.comment.empty()) {
        putOption(kOptComment, packet.comment);
        putEndOfOptions();
    }
    endBlock();
    ++packets_;
}

void PcapngWriter::writeInterfaceStats(const PcapngInterfaceStats& stats) {
    requireOpen();
    if (stats.interfaceId >= interfaceCount_) {
        throw std::invalid_argument(fmt::format("statistics of interface {}, but only {} interfaces were described",
                                                stats.interfaceId, interfaceCount_));
    }
    beginBlock(kInterfaceStatisticsBlock);
    put32(stats.interfaceId);
    putTimestamp(stats.tsNs);
    if (stats.startNs != 0) {
        putTimestampOption(kIsbStartTime, stats.startNs);
    }
    putTimestampOption(kIsbEndTime, stats.tsNs);
    putOption64(kIsbIfReceived, stats.received);
    putOption64(kIsbIfDropped, stats.droppedByInterface);
    putOption64(kIsbOsDropped, stats.droppedByKernel);
    putOption64(kIsbUserDelivered, stats.delivered);
    putEndOfOptions();
    endBlock();
}

void PcapngWriter::flush() {
    requireOpen();
    size_t done = 0;
    while (done < buffer_.size()) {
        const ssize_t wrote = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
        if (wrote < 0) {
            if (errno == EINTR) {
                continue;
            }
            const int error = errno;
            // Keep what was not written out of the file's count, so the offset in the message is true.
            buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(done));
            flushedBytes_ += done;
            fail(flushedBytes_, "cannot write: " + systemReason(error));
        }
        done += static_cast<size_t>(wrote);
    }
    flushedBytes_ += done;
    buffer_.clear();
}

void PcapngWriter::close() {
    if (fd_ < 0) {
        return;
    }
    try {
        flush();
    } catch (const PcapngWriteError&) {
        if (ownsFd_) {
            ::close(fd_);
        }
        fd_ = -1;
        throw;
    }
    const int fd = fd_;
    fd_ = -1;
    if (ownsFd_ && ::close(fd) != 0) {
        fail(flushedBytes_, "cannot close the file: " + systemReason(errno));
    }
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

// A timestamp is two 32-bit words, the high one first, in units of if_tsresol (nanoseconds).
void PcapngWriter::putTimestamp(int64_t tsNs) {
    const auto units = static_cast<uint64_t>(tsNs < 0 ? 0 : tsNs);
    put32(static_cast<uint32_t>(units >> 32));
    put32(static_cast<uint32_t>(units & 0xFFFFFFFFu));
}

void PcapngWriter::putTimestampOption(uint16_t code, int64_t tsNs) {
    put16(code);
    put16(8);
    putTimestamp(tsNs);
}

void PcapngWriter::putEndOfOptions() { put32(0); }

void PcapngWriter::requireOpen() const {
    if (fd_ < 0) {
        fail(flushedBytes_, "the file is already closed");
    }
}

void PcapngWriter::fail(uint64_t offset, const std::string& reason) const {
    throw PcapngWriteError(InputProblem{name_, offset, reason});
}

}  // namespace tcpscope
