#pragma once
#include <memory>
#include <span>
#include <string>

#include "capture/input_stream.hpp"

struct z_stream_s;

namespace tcpscope {

/// Inflates gzip data from another stream, member after member (`cat a.gz b.gz` is one stream),
/// straight into the caller's buffer. Corrupt data throws InputStreamError after every byte
/// decoded before it has been returned; data cut short or followed by garbage ends the stream
/// with an endRemark().
class GzipInputStream final : public InputStream {
public:
    /// Inflates `compressed`, whose first bytes were already read into `firstBytes` (for format
    /// detection) and are decoded before anything else.
    GzipInputStream(std::unique_ptr<InputStream> compressed, std::span<const uint8_t> firstBytes);
    ~GzipInputStream() override;

    size_t read(uint8_t* destination, size_t capacity) override;
    [[nodiscard]] uint64_t bytesConsumed() const override { return compressed_->bytesConsumed(); }
    [[nodiscard]] uint64_t fileSize() const override { return compressed_->fileSize(); }
    [[nodiscard]] std::string endRemark() const override { return remark_; }

private:
    struct InflateDeleter {
        void operator()(z_stream_s* stream) const;
    };

    /// Makes at least `count` unread compressed bytes available if the input has them.
    bool fillInput(size_t count);
    [[nodiscard]] uint64_t compressedOffset() const;

    std::unique_ptr<InputStream> compressed_;
    std::unique_ptr<uint8_t[]> input_;
    std::unique_ptr<z_stream_s, InflateDeleter> inflater_;
    uint64_t compressedRead_ = 0;
    bool compressedEnded_ = false;
    bool finished_ = false;
    std::string pendingError_;
    std::string remark_;
};

}  // namespace tcpscope
