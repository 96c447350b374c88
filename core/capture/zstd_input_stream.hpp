#pragma once
#include <memory>
#include <span>
#include <string>

#include "capture/input_stream.hpp"

struct ZSTD_DCtx_s;

namespace tcpscope {

/// Decompresses zstd data from another stream, frame after frame (skippable frames included),
/// straight into the caller's buffer. Corrupt data throws InputStreamError after every byte
/// decoded before it has been returned; data cut short ends the stream with an endRemark().
class ZstdInputStream final : public InputStream {
public:
    /// Decompresses `compressed`, whose first bytes were already read into `firstBytes` (for
    /// format detection) and are decoded before anything else.
    ZstdInputStream(std::unique_ptr<InputStream> compressed, std::span<const uint8_t> firstBytes);
    ~ZstdInputStream() override;

    size_t read(uint8_t* destination, size_t capacity) override;
    [[nodiscard]] uint64_t bytesConsumed() const override { return compressed_->bytesConsumed(); }
    [[nodiscard]] uint64_t fileSize() const override { return compressed_->fileSize(); }
    [[nodiscard]] std::string endRemark() const override { return remark_; }

private:
    struct ContextDeleter {
        void operator()(ZSTD_DCtx_s* context) const;
    };

    void refillInput();
    [[nodiscard]] uint64_t compressedOffset() const { return compressedRead_ - (inputSize_ - inputPosition_); }

    std::unique_ptr<InputStream> compressed_;
    std::unique_ptr<uint8_t[]> input_;
    std::unique_ptr<ZSTD_DCtx_s, ContextDeleter> context_;
    size_t inputSize_ = 0;
    size_t inputPosition_ = 0;
    uint64_t compressedRead_ = 0;
    bool compressedEnded_ = false;
    bool frameInProgress_ = false;
    bool finished_ = false;
    std::string pendingError_;
    std::string remark_;
};

}  // namespace tcpscope
