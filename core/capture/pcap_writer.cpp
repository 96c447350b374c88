#include "capture/pcap_writer.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace tcpscope {

namespace {

constexpr uint32_t kMicrosecondMagic = 0xA1B2C3D4;
constexpr uint32_t kNanosecondMagic = 0xA1B23C4D;

void put16(uint8_t* out, uint16_t value, bool bigEndian) {
    const auto high = static_cast<uint8_t>(value >> 8);
    const auto low = static_cast<uint8_t>(value);
    out[0] = bigEndian ? high : low;
    out[1] = bigEndian ? low : high;
}

void put32(uint8_t* out, uint32_t value, bool bigEndian) {
    const auto high = static_cast<uint16_t>(value >> 16);
    const auto low = static_cast<uint16_t>(value);
    put16(out, bigEndian ? high : low, bigEndian);
    put16(out + 2, bigEndian ? low : high, bigEndian);
}

}  // namespace

void encodePcapFileHeader(const PcapFileHeader& header, uint8_t* out) {
    put32(out, header.nanoseconds ? kNanosecondMagic : kMicrosecondMagic, header.bigEndian);
    put16(out + 4, 2, header.bigEndian);  // version 2.4
    put16(out + 6, 4, header.bigEndian);
    put32(out + 8, 0, header.bigEndian);   // thiszone
    put32(out + 12, 0, header.bigEndian);  // sigfigs
    put32(out + 16, header.snapLength, header.bigEndian);
    put32(out + 20, header.linkType, header.bigEndian);
}

void encodePcapRecordHeader(const PcapFileHeader& header, int64_t tsNs, uint32_t capturedLength,
                            uint32_t originalLength, uint8_t* out) {
    const int64_t unitsPerSecond = header.nanoseconds ? 1'000'000'000 : 1'000'000;
    const int64_t units = header.nanoseconds ? tsNs : tsNs / 1000;
    put32(out, static_cast<uint32_t>(units / unitsPerSecond), header.bigEndian);
    put32(out + 4, static_cast<uint32_t>(units % unitsPerSecond), header.bigEndian);
    put32(out + 8, capturedLength, header.bigEndian);
    put32(out + 12, originalLength, header.bigEndian);
}

PcapWriter::PcapWriter(const std::string& path, const PcapFileHeader& header, size_t bufferBytes)
    : header_(header), output_(std::make_unique<CaptureOutput>(path)),
      buffer_(std::max(bufferBytes, kPcapFileHeaderBytes)) {
    encodePcapFileHeader(header_, buffer_.data());
    used_ = kPcapFileHeaderBytes;
}

PcapWriter::PcapWriter(const PcapFileHeader& header)
    : header_(header), toMemory_(true), buffer_(kPcapFileHeaderBytes) {
    encodePcapFileHeader(header_, buffer_.data());
    used_ = kPcapFileHeaderBytes;
}

PcapWriter::~PcapWriter() {
    try {
        finish();
    } catch (const CaptureWriteError&) {
        // Reported only through finish(); a destructor cannot throw.
    }
}

uint8_t* PcapWriter::beginRecord(int64_t tsNs, uint32_t capturedLength, uint32_t originalLength) {
    if (!open_) {
        throw std::logic_error("pcap writer: a record after finish()");
    }
    if (capturedLength > header_.snapLength || originalLength < capturedLength) {
        throw std::invalid_argument(fmt::format("record of {} captured bytes (original length {}) in a file of "
                                                "snapshot length {}",
                                                capturedLength, originalLength, header_.snapLength));
    }
    const size_t recordBytes = kPcapRecordHeaderBytes + capturedLength;
    if (buffer_.size() - used_ < recordBytes) {
        makeRoom(recordBytes);
    }
    uint8_t* record = buffer_.data() + used_;
    encodePcapRecordHeader(header_, tsNs, capturedLength, originalLength, record);
    used_ += recordBytes;
    return record + kPcapRecordHeaderBytes;
}

void PcapWriter::writeRecord(int64_t tsNs, std::span<const uint8_t> data, uint32_t originalLength) {
    if (data.size() > UINT32_MAX) {
        throw std::invalid_argument(fmt::format("record of {} bytes", data.size()));
    }
    uint8_t* out = beginRecord(tsNs, static_cast<uint32_t>(data.size()), originalLength);
    std::copy(data.begin(), data.end(), out);
}

void PcapWriter::finish() {
    if (!open_) {
        return;
    }
    open_ = false;
    if (output_) {
        flush();
        output_->close();
    }
}

void PcapWriter::makeRoom(size_t bytes) {
    if (output_) {
        flush();
    }
    if (buffer_.size() - used_ < bytes) {
        buffer_.resize(std::max(buffer_.size() * 2, used_ + bytes));
    }
}

void PcapWriter::flush() {
    const size_t used = std::exchange(used_, 0);  // lost if the write fails: bytesWritten() stays the file's size
    output_->write({buffer_.data(), used});
}

}  // namespace tcpscope
