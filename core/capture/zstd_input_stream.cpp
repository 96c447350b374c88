#include "capture/zstd_input_stream.hpp"

#include <zstd.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace tcpscope {

namespace {
constexpr size_t kInputChunkBytes = size_t{1} << 20;
// The decoder allocates a window as large as a frame asks for: 2^27 (128 MiB) is zstd's own
// default limit, enough for `zstd --long` and `--ultra -22`, and bounds what a hostile file costs.
constexpr int kMaxWindowLog = 27;
}  // namespace

void ZstdInputStream::ContextDeleter::operator()(ZSTD_DCtx_s* context) const { ZSTD_freeDCtx(context); }

ZstdInputStream::ZstdInputStream(std::unique_ptr<InputStream> compressed, std::span<const uint8_t> firstBytes)
    : compressed_(std::move(compressed)), input_(new uint8_t[kInputChunkBytes]), context_(ZSTD_createDCtx()) {
    if (!context_) {
        throw InputStreamError("cannot start the zstd decoder: out of memory");
    }
    ZSTD_DCtx_setParameter(context_.get(), ZSTD_d_windowLogMax, kMaxWindowLog);
    inputSize_ = std::min(firstBytes.size(), kInputChunkBytes);
    if (inputSize_ > 0) {
        std::memcpy(input_.get(), firstBytes.data(), inputSize_);
    }
    compressedRead_ = inputSize_;
}

ZstdInputStream::~ZstdInputStream() = default;

void ZstdInputStream::refillInput() {
    inputPosition_ = 0;
    inputSize_ = compressed_->read(input_.get(), kInputChunkBytes);
    compressedRead_ += inputSize_;
    if (inputSize_ == 0) {
        compressedEnded_ = true;
    }
}

size_t ZstdInputStream::read(uint8_t* destination, size_t capacity) {
    if (!pendingError_.empty()) {
        throw InputStreamError(pendingError_);
    }
    if (finished_ || capacity == 0) {
        return 0;
    }
    ZSTD_outBuffer output{destination, capacity, 0};
    while (true) {
        if (inputPosition_ == inputSize_ && !compressedEnded_) {
            refillInput();
        }
        ZSTD_inBuffer input{input_.get(), inputSize_, inputPosition_};
        const size_t outputBefore = output.pos;
        const size_t result = ZSTD_decompressStream(context_.get(), &output, &input);
        const bool progressed = input.pos != inputPosition_ || output.pos != outputBefore;
        inputPosition_ = input.pos;
        if (ZSTD_isError(result) != 0) {
            std::string reason = fmt::format("corrupt zstd data at or after compressed byte {}: {}", compressedOffset(),
                                             ZSTD_getErrorName(result));
            finished_ = true;
            if (output.pos > 0) {
                pendingError_ = std::move(reason);
                return output.pos;
            }
            throw InputStreamError(reason);
        }
        if (progressed) {
            // A call without input or output says nothing about the frame: between frames the
            // decoder answers with the size of the next header it expects.
            frameInProgress_ = result != 0;
        }
        if (output.pos == output.size) {
            return output.pos;
        }
        if (inputPosition_ < inputSize_) {
            continue;
        }
        // All input taken and the output not full: the decoder flushed everything it could.
        if (!compressedEnded_) {
            if (output.pos > 0) {
                return output.pos;  // hand over what we have rather than wait on a slow pipe
            }
            continue;
        }
        if (frameInProgress_) {
            remark_ = fmt::format("zstd data is cut short (the compressed file ends at byte {} inside a frame)",
                                  compressedOffset());
        }
        finished_ = true;
        return output.pos;
    }
}

}  // namespace tcpscope
