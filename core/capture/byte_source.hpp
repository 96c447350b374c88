#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "capture/capture_error.hpp"
#include "capture/input_stream.hpp"

namespace tcpscope {

/// How the bytes of a capture file are compressed.
enum class Compression { None, Gzip, Zstd };

/// "none", "gzip" or "zstd".
const char* compressionName(Compression compression);

/// The decompressed bytes of one capture file, read in large chunks and handed to a reader as
/// contiguous runs without copying: `ensure(n)` makes n bytes available at the current position,
/// `consume(n)` moves past them. Compression (gzip, zstd) is recognised by magic bytes. The
/// source also keeps the warnings and the fatal error met while reading the file. The capture
/// readers and the strace reader read through it.
class ByteSource {
public:
    /// The most bytes one ensure() may ask for; readers bound their records well below this.
    static constexpr size_t kMaxContiguousBytes = size_t{64} << 20;

    /// Opens a file, or standard input for "-". Throws CaptureError if it cannot be opened or its
    /// first bytes cannot be read or decompressed.
    static ByteSource openFile(const std::string& path);
    /// Reads `bytes` (possibly compressed) under the display name `name`. Uncompressed bytes are
    /// read in place, without any copy.
    static ByteSource openMemory(const std::string& name, std::vector<uint8_t> bytes);

    ByteSource(ByteSource&&) noexcept;
    ByteSource& operator=(ByteSource&&) noexcept;
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;
    ~ByteSource();

    /// Pointer to `count` contiguous bytes at the current position, valid until the next
    /// ensure(); nullptr if the stream ends (or fails) before that many bytes.
    const uint8_t* ensure(size_t count) {
        return static_cast<size_t>(end_ - position_) >= count ? position_ : refill(count);
    }
    /// Bytes available at the current position without reading more.
    [[nodiscard]] size_t available() const { return static_cast<size_t>(end_ - position_); }
    /// Moves past `count` bytes, which must be available().
    void consume(size_t count) { position_ += count; }
    /// Offset of the current position in the decompressed stream.
    [[nodiscard]] uint64_t offset() const { return windowOffset_ + static_cast<uint64_t>(position_ - window_); }

    /// Records a non-fatal problem at `offset` of the decompressed stream (the first hundred are kept).
    void warn(uint64_t offset, std::string reason);
    /// Records the problem that ends reading; later ensure() calls return nullptr.
    void fail(uint64_t offset, std::string reason);
    /// The warnings recorded so far, in the order met.
    [[nodiscard]] const std::vector<InputProblem>& warnings() const { return warnings_; }
    /// The fatal problem, or null while reading can go on.
    [[nodiscard]] const InputProblem* error() const { return error_ ? &*error_ : nullptr; }

    /// The path (or display name) the source was opened with.
    [[nodiscard]] const std::string& name() const { return name_; }
    /// The compression found by magic bytes.
    [[nodiscard]] Compression compression() const { return compression_; }
    /// Bytes of the file (compressed bytes for a compressed file) read so far.
    [[nodiscard]] uint64_t bytesConsumed() const;
    /// Size of the file in bytes, 0 when unknown (a pipe).
    [[nodiscard]] uint64_t fileSize() const;

private:
    ByteSource(std::string name, std::unique_ptr<InputStream> raw, std::vector<uint8_t> memory);
    const uint8_t* refill(size_t count);
    /// Makes room for `count` bytes in the owned buffer, keeping the unread ones at its start.
    void compact(size_t count);

    std::string name_;
    Compression compression_ = Compression::None;
    std::vector<uint8_t> memory_;          // bytes given to openMemory(), if any
    std::unique_ptr<InputStream> stream_;  // null when reading memory_ in place
    std::unique_ptr<uint8_t[]> buffer_;
    size_t bufferCapacity_ = 0;
    const uint8_t* window_ = nullptr;  // start of the bytes held (buffer_ or memory_)
    const uint8_t* position_ = nullptr;
    const uint8_t* end_ = nullptr;
    uint64_t windowOffset_ = 0;  // stream offset of window_
    bool streamEnded_ = false;
    std::vector<InputProblem> warnings_;
    std::optional<InputProblem> error_;
};

}  // namespace tcpscope
