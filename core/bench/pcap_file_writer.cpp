#include "bench/pcap_file_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "bench/generator_error.hpp"

namespace tcpscope::bench {

namespace {

// Large enough that write() calls cost nothing next to filling the buffer.
constexpr size_t kBufferBytes = size_t{8} << 20;
constexpr size_t kRecordHeaderBytes = 16;
constexpr uint32_t kMaxSnaplen = 262144;
constexpr uint32_t kNanosecondMagic = 0xa1b23c4d;
constexpr uint32_t kLinkTypeEthernet = 1;

void putLittle32(uint8_t* out, uint32_t value) {
    out[0] = static_cast<uint8_t>(value);
    out[1] = static_cast<uint8_t>(value >> 8);
    out[2] = static_cast<uint8_t>(value >> 16);
    out[3] = static_cast<uint8_t>(value >> 24);
}

void putLittle16(uint8_t* out, uint16_t value) {
    out[0] = static_cast<uint8_t>(value);
    out[1] = static_cast<uint8_t>(value >> 8);
}

}  // namespace

PcapFileWriter::PcapFileWriter(std::string path, uint32_t snaplen)
    : path_(std::move(path)), snaplen_(snaplen), buffer_(std::make_unique<uint8_t[]>(kBufferBytes)) {
    if (snaplen_ < 64 || snaplen_ > kMaxSnaplen) {
        fail(fmt::format("snapshot length {} is outside 64..{}", snaplen_, kMaxSnaplen));
    }
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) {
        fail(fmt::format("cannot create: {}", std::strerror(errno)));
    }
    uint8_t* header = buffer_.get();
    putLittle32(header, kNanosecondMagic);
    putLittle16(header + 4, 2);  // version 2.4
    putLittle16(header + 6, 4);
    putLittle32(header + 8, 0);  // thiszone
    putLittle32(header + 12, 0); // sigfigs
    putLittle32(header + 16, snaplen_);
    putLittle32(header + 20, kLinkTypeEthernet);
    used_ = 24;
}

PcapFileWriter::~PcapFileWriter() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

uint8_t* PcapFileWriter::beginRecord(int64_t tsNs, uint32_t capturedLength, uint32_t originalLength) {
    if (capturedLength > snaplen_) {
        fail(fmt::format("record of {} bytes exceeds the snapshot length {}", capturedLength, snaplen_));
    }
    if (kBufferBytes - used_ < kRecordHeaderBytes + capturedLength) {
        flush();
    }
    uint8_t* record = buffer_.get() + used_;
    putLittle32(record, static_cast<uint32_t>(tsNs / 1'000'000'000));
    putLittle32(record + 4, static_cast<uint32_t>(tsNs % 1'000'000'000));
    putLittle32(record + 8, capturedLength);
    putLittle32(record + 12, originalLength);
    used_ += kRecordHeaderBytes + capturedLength;
    return record + kRecordHeaderBytes;
}

void PcapFileWriter::flush() {
    size_t done = 0;
    while (done < used_) {
        const ssize_t written = ::write(fd_, buffer_.get() + done, used_ - done);
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            failAt(flushedBytes_ + done, fmt::format("write failed: {}", std::strerror(errno)));
        }
        done += static_cast<size_t>(written);
    }
    flushedBytes_ += used_;
    used_ = 0;
}

void PcapFileWriter::finish() {
    flush();
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
        fail(fmt::format("close failed: {}", std::strerror(errno)));
    }
}

void PcapFileWriter::fail(const std::string& reason) const { failAt(flushedBytes_ + used_, reason); }

void PcapFileWriter::failAt(uint64_t offset, const std::string& reason) const {
    throw GeneratorError(fmt::format("{}: offset {}: {}", path_, offset, reason));
}

}  // namespace tcpscope::bench
