#include "live/capture_file_writer.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "tcpscope_version.hpp"

namespace tcpscope {

namespace {

PcapngSectionInfo sectionInfo(const std::string& application) {
    PcapngSectionInfo section;
    utsname system{};
    if (::uname(&system) == 0) {
        section.hardware = system.machine;
        section.os = fmt::format("{} {}", system.sysname, system.release);
    }
    section.application = application.empty() ? fmt::format("tcpscope {}", kVersion) : application;
    return section;
}

}  // namespace

CaptureFileWriter::CaptureFileWriter(CaptureFileOptions options, CaptureDescription source)
    : options_(std::move(options)), source_(std::move(source)) {
    openNext();
}

std::string CaptureFileWriter::nameOf(uint64_t sequence) const {
    if (!options_.ring()) {
        return options_.path;
    }
    const std::filesystem::path path(options_.path);
    const std::string extension = path.has_extension() ? path.extension().string() : ".pcapng";
    return (path.parent_path() / fmt::format("{}_{:05}{}", path.stem().string(), sequence, extension)).string();
}

void CaptureFileWriter::openNext() {
    if (writer_) {
        writer_->close();
    }
    ++sequence_;
    const std::string name = nameOf(sequence_);
    writer_ = std::make_unique<PcapngWriter>(name, sectionInfo(options_.application), PcapngFlush::Manual);
    interfaces_.clear();
    files_.push_back(name);
    fileHasPackets_ = false;
    while (options_.maxFiles != 0 && files_.size() > options_.maxFiles) {
        const std::string& oldest = files_.front();
        if (::unlink(oldest.c_str()) != 0 && errno != ENOENT) {
            throw PcapngWriteError(InputProblem{oldest, 0, std::string("cannot delete the oldest file of the ring: ") +
                                                               std::strerror(errno)});
        }
        files_.pop_front();
        ++deleted_;
    }
}

uint32_t CaptureFileWriter::interfaceFor(const RawPacket& packet) {
    for (uint32_t index = 0; index < interfaces_.size(); ++index) {
        if (interfaces_[index].first == packet.interfaceId && interfaces_[index].second == packet.linkType) {
            return index;
        }
    }
    PcapngInterfaceInfo interface;
    interface.linkType = packet.linkType;
    interface.snapLength = source_.snapLength;
    interface.name = source_.device;
    interface.filter = source_.filter;
    interfaces_.emplace_back(packet.interfaceId, packet.linkType);
    return writer_->addInterface(interface);
}

void CaptureFileWriter::write(const RawPacket& packet) {
    if (fileHasPackets_) {
        const bool full = options_.maxFileBytes != 0 && writer_->bytesWritten() >= options_.maxFileBytes;
        const bool old = options_.maxFileNs != 0 && packet.tsNs - fileStartNs_ >= options_.maxFileNs;
        if (full || old) {
            openNext();
        }
    }
    if (!fileHasPackets_) {
        fileStartNs_ = packet.tsNs;
        fileHasPackets_ = true;
    }
    PcapngPacket block;  // fields by name: options the writer gains stay empty here
    block.interfaceId = interfaceFor(packet);
    block.tsNs = packet.tsNs;
    block.originalLength = packet.originalLength;
    block.data = std::span<const uint8_t>(packet.data, packet.capturedLength);
    block.comment = packet.comment;
    block.direction = packet.direction;
    writer_->writePacket(block);
    ++packets_;
}

void CaptureFileWriter::writeCustomBlock(uint32_t type, uint32_t pen, std::span<const uint8_t> data) {
    writer_->writeCustomBlock(type, pen, data);
}

void CaptureFileWriter::flush() { writer_->flush(); }

void CaptureFileWriter::close(const CaptureStats& stats, int64_t startNs, int64_t endNs) {
    if (!writer_) {
        return;
    }
    if (!interfaces_.empty()) {
        writer_->writeInterfaceStats(PcapngInterfaceStats{0, endNs, startNs, stats.captured + stats.droppedByKernel,
                                                          stats.droppedByKernel, stats.droppedByInterface, packets_});
    }
    writer_->close();
    writer_.reset();
}

}  // namespace tcpscope
