#include "capture/byte_source.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "capture/gzip_input_stream.hpp"
#include "capture/zstd_input_stream.hpp"

namespace tcpscope {

namespace {

// Reads ask for at least this much, so a file is read in a few large system calls; the buffer is
// kept small enough (2 MiB) that what read() copies in is still in cache when the reader parses it.
constexpr size_t kReadChunkBytes = size_t{1} << 20;
constexpr size_t kInitialCapacity = 2 * kReadChunkBytes;
constexpr size_t kMaxWarnings = 100;
constexpr size_t kMagicBytes = 4;

Compression detectCompression(const uint8_t* bytes, size_t count) {
    if (count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b) {
        return Compression::Gzip;
    }
    if (count >= 4) {
        const bool zstdFrame = bytes[0] == 0x28 && bytes[1] == 0xb5 && bytes[2] == 0x2f && bytes[3] == 0xfd;
        // Skippable frames (magic 0x184D2A50..5F, little-endian) may open a zstd stream.
        const bool skippableFrame =
            (bytes[0] & 0xf0) == 0x50 && bytes[1] == 0x2a && bytes[2] == 0x4d && bytes[3] == 0x18;
        if (zstdFrame || skippableFrame) {
            return Compression::Zstd;
        }
    }
    return Compression::None;
}

std::unique_ptr<InputStream> decompressorFor(Compression compression, std::unique_ptr<InputStream> raw,
                                             std::span<const uint8_t> firstBytes) {
    switch (compression) {
    case Compression::Gzip:
        return std::make_unique<GzipInputStream>(std::move(raw), firstBytes);
    case Compression::Zstd:
        return std::make_unique<ZstdInputStream>(std::move(raw), firstBytes);
    case Compression::None:
        break;
    }
    return raw;
}

}  // namespace

const char* compressionName(Compression compression) {
    switch (compression) {
    case Compression::Gzip:
        return "gzip";
    case Compression::Zstd:
        return "zstd";
    case Compression::None:
        break;
    }
    return "none";
}

ByteSource ByteSource::openFile(const std::string& path) {
    try {
        return {path, std::make_unique<FileInputStream>(path), {}};
    } catch (const InputStreamError& failure) {
        throw CaptureError(InputProblem{path, 0, failure.what()});
    }
}

ByteSource ByteSource::openMemory(const std::string& name, std::vector<uint8_t> bytes) {
    try {
        return {name, nullptr, std::move(bytes)};
    } catch (const InputStreamError& failure) {
        throw CaptureError(InputProblem{name, 0, failure.what()});
    }
}

ByteSource::ByteSource(std::string name, std::unique_ptr<InputStream> raw, std::vector<uint8_t> memory)
    : name_(std::move(name)), memory_(std::move(memory)) {
    if (!raw) {
        compression_ = detectCompression(memory_.data(), memory_.size());
        if (compression_ == Compression::None) {
            // Read in place: the packets point straight into the caller's bytes.
            window_ = position_ = memory_.data();
            end_ = window_ + memory_.size();
            streamEnded_ = true;
            return;
        }
        stream_ = decompressorFor(compression_, std::make_unique<MemoryInputStream>(memory_), {});
    } else {
        // The magic must be read before the stream can be wrapped; a pipe may deliver it piecemeal.
        uint8_t magic[kMagicBytes];
        size_t magicLength = 0;
        while (magicLength < kMagicBytes) {
            const size_t got = raw->read(magic + magicLength, kMagicBytes - magicLength);
            if (got == 0) {
                break;
            }
            magicLength += got;
        }
        compression_ = detectCompression(magic, magicLength);
        const std::span<const uint8_t> firstBytes(magic, magicLength);
        if (compression_ != Compression::None) {
            stream_ = decompressorFor(compression_, std::move(raw), firstBytes);
        } else {
            stream_ = std::move(raw);
            bufferCapacity_ = kInitialCapacity;
            buffer_.reset(new uint8_t[bufferCapacity_]);
            std::memcpy(buffer_.get(), magic, magicLength);
            window_ = position_ = buffer_.get();
            end_ = window_ + magicLength;
            return;
        }
    }
    bufferCapacity_ = kInitialCapacity;
    buffer_.reset(new uint8_t[bufferCapacity_]);
    window_ = position_ = end_ = buffer_.get();
}

ByteSource::ByteSource(ByteSource&&) noexcept = default;
ByteSource& ByteSource::operator=(ByteSource&&) noexcept = default;
ByteSource::~ByteSource() = default;

uint64_t ByteSource::bytesConsumed() const { return stream_ ? stream_->bytesConsumed() : offset(); }

uint64_t ByteSource::fileSize() const { return stream_ ? stream_->fileSize() : memory_.size(); }

void ByteSource::warn(uint64_t offset, std::string reason) {
    if (warnings_.size() < kMaxWarnings) {
        warnings_.push_back(InputProblem{name_, offset, std::move(reason)});
    } else if (warnings_.size() == kMaxWarnings) {
        warnings_.push_back(InputProblem{name_, offset, "too many warnings; further ones are not recorded"});
    }
}

void ByteSource::fail(uint64_t offset, std::string reason) {
    if (!error_) {
        error_ = InputProblem{name_, offset, std::move(reason)};
    }
    // Nothing after a fatal problem is trusted: drop what is buffered and read no more.
    streamEnded_ = true;
    end_ = position_;
}

void ByteSource::compact(size_t count) {
    const size_t have = available();
    windowOffset_ = offset();
    if (bufferCapacity_ < count + kReadChunkBytes) {
        const size_t capacity = std::min(std::bit_ceil(count + kReadChunkBytes), kMaxContiguousBytes + kReadChunkBytes);
        std::unique_ptr<uint8_t[]> grown(new uint8_t[capacity]);
        std::memcpy(grown.get(), position_, have);
        buffer_ = std::move(grown);
        bufferCapacity_ = capacity;
    } else if (have > 0 && position_ != buffer_.get()) {
        std::memmove(buffer_.get(), position_, have);
    }
    window_ = position_ = buffer_.get();
    end_ = window_ + have;
}

const uint8_t* ByteSource::refill(size_t count) {
    if (streamEnded_) {
        return nullptr;
    }
    if (count > kMaxContiguousBytes) {
        fail(offset(),
             fmt::format("a record of {} bytes is larger than the {} bytes supported", count, kMaxContiguousBytes));
        return nullptr;
    }
    compact(count);
    uint8_t* const buffer = buffer_.get();
    size_t have = available();
    while (have < count) {
        size_t got = 0;
        try {
            got = stream_->read(buffer + have, bufferCapacity_ - have);
        } catch (const InputStreamError& failure) {
            fail(offset() + have, failure.what());
            return nullptr;
        }
        if (got == 0) {
            streamEnded_ = true;
            if (std::string remark = stream_->endRemark(); !remark.empty()) {
                warn(offset() + have, std::move(remark));
            }
            break;
        }
        have += got;
        end_ = buffer + have;
    }
    return have >= count ? position_ : nullptr;
}

}  // namespace tcpscope
