#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

namespace tcpscope {

/// A failure while producing stream bytes (a read error, corrupt compressed data). It carries only
/// the reason: the ByteSource that owns the stream adds the file name and the stream offset.
class InputStreamError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A sequential producer of bytes: a file, a memory buffer, or a decompressor over one of those.
/// Called once per large chunk (a megabyte or so), so the virtual call costs nothing per packet.
class InputStream {
public:
    virtual ~InputStream() = default;
    InputStream() = default;
    InputStream(const InputStream&) = delete;
    InputStream& operator=(const InputStream&) = delete;

    /// Fills up to `capacity` bytes at `destination`. Returns 0 only at the end of the stream,
    /// and may return fewer bytes than asked (a pipe). Throws InputStreamError on failure.
    virtual size_t read(uint8_t* destination, size_t capacity) = 0;
    /// Bytes taken from the underlying file so far (compressed bytes for a decompressor).
    [[nodiscard]] virtual uint64_t bytesConsumed() const = 0;
    /// Size of the underlying file in bytes, 0 when unknown (a pipe).
    [[nodiscard]] virtual uint64_t fileSize() const = 0;
    /// After read() returned 0: a remark on how the stream ended (compressed data cut short,
    /// trailing garbage), or an empty string when it ended cleanly.
    [[nodiscard]] virtual std::string endRemark() const { return {}; }
};

/// Reads a file, or standard input for the path "-", with plain read() calls.
class FileInputStream final : public InputStream {
public:
    /// Opens `path` for reading. Throws InputStreamError with the system's reason on failure.
    explicit FileInputStream(const std::string& path);
    ~FileInputStream() override;

    size_t read(uint8_t* destination, size_t capacity) override;
    [[nodiscard]] uint64_t bytesConsumed() const override { return bytesRead_; }
    [[nodiscard]] uint64_t fileSize() const override { return fileSize_; }

private:
    int fd_ = -1;
    bool ownsFd_ = false;
    uint64_t bytesRead_ = 0;
    uint64_t fileSize_ = 0;
};

/// Reads bytes that are already in memory. The bytes must outlive the stream.
class MemoryInputStream final : public InputStream {
public:
    /// A stream over `bytes`, which it does not copy.
    explicit MemoryInputStream(std::span<const uint8_t> bytes) : bytes_(bytes) {}

    size_t read(uint8_t* destination, size_t capacity) override;
    [[nodiscard]] uint64_t bytesConsumed() const override { return position_; }
    [[nodiscard]] uint64_t fileSize() const override { return bytes_.size(); }

private:
    std::span<const uint8_t> bytes_;
    size_t position_ = 0;
};

}  // namespace tcpscope
