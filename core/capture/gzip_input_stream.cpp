#include "capture/gzip_input_stream.hpp"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>

#include <fmt/format.h>

namespace tcpscope {

namespace {
constexpr size_t kInputChunkBytes = size_t{1} << 20;
constexpr int kGzipOnlyWindowBits = 16 + MAX_WBITS;  // 16: expect a gzip header and trailer
}  // namespace

void GzipInputStream::InflateDeleter::operator()(z_stream_s* stream) const {
    inflateEnd(stream);
    delete stream;
}

GzipInputStream::GzipInputStream(std::unique_ptr<InputStream> compressed, std::span<const uint8_t> firstBytes)
    : compressed_(std::move(compressed)), input_(new uint8_t[kInputChunkBytes]) {
    auto stream = std::make_unique<z_stream_s>();
    if (inflateInit2(stream.get(), kGzipOnlyWindowBits) != Z_OK) {
        throw InputStreamError("cannot start the gzip decoder: out of memory");
    }
    inflater_.reset(stream.release());
    const size_t count = std::min(firstBytes.size(), kInputChunkBytes);
    if (count > 0) {
        std::memcpy(input_.get(), firstBytes.data(), count);
    }
    inflater_->next_in = input_.get();
    inflater_->avail_in = static_cast<uInt>(count);
    compressedRead_ = count;
}

GzipInputStream::~GzipInputStream() = default;

uint64_t GzipInputStream::compressedOffset() const { return compressedRead_ - inflater_->avail_in; }

bool GzipInputStream::fillInput(size_t count) {
    z_stream_s& stream = *inflater_;
    if (stream.avail_in >= count) {
        return true;
    }
    size_t have = stream.avail_in;
    std::memmove(input_.get(), stream.next_in, have);
    stream.next_in = input_.get();
    while (have < count && !compressedEnded_) {
        const size_t got = compressed_->read(input_.get() + have, kInputChunkBytes - have);
        if (got == 0) {
            compressedEnded_ = true;
        }
        have += got;
        compressedRead_ += got;
    }
    stream.avail_in = static_cast<uInt>(have);
    return have >= count;
}

size_t GzipInputStream::read(uint8_t* destination, size_t capacity) {
    if (!pendingError_.empty()) {
        throw InputStreamError(pendingError_);
    }
    if (finished_ || capacity == 0) {
        return 0;
    }
    z_stream_s& stream = *inflater_;
    const auto outputBytes = static_cast<uInt>(std::min<size_t>(capacity, UINT_MAX));
    stream.next_out = destination;
    stream.avail_out = outputBytes;
    while (true) {
        if (stream.avail_in == 0) {
            fillInput(1);
        }
        const uInt inputBefore = stream.avail_in;
        const uInt outputBefore = stream.avail_out;
        const int result = inflate(&stream, Z_NO_FLUSH);
        const size_t produced = outputBytes - stream.avail_out;
        if (result == Z_STREAM_END) {
            // One member is complete. Another follows only if the next bytes start a gzip header.
            const bool more = fillInput(2);
            if (more && stream.next_in[0] == 0x1f && stream.next_in[1] == 0x8b) {
                inflateReset(&stream);
                if (produced > 0) {
                    return produced;
                }
                continue;
            }
            if (stream.avail_in > 0) {
                remark_ = fmt::format("ignored data after the end of the gzip stream (from compressed byte {})",
                                      compressedOffset());
            }
            finished_ = true;
            return produced;
        }
        if (result == Z_OK || result == Z_BUF_ERROR) {
            if (produced > 0) {
                return produced;
            }
            if (stream.avail_in == 0 && compressedEnded_) {
                remark_ =
                    fmt::format("gzip data is cut short (the compressed file ends at byte {} inside a gzip member)",
                                compressedOffset());
                finished_ = true;
                return 0;
            }
            const bool progressed = stream.avail_in != inputBefore || stream.avail_out != outputBefore;
            if (progressed || stream.avail_in == 0) {
                continue;
            }
        }
        const char* detail = stream.msg != nullptr ? stream.msg : zError(result);
        std::string reason = fmt::format("corrupt gzip data at compressed byte {}: {}", compressedOffset(), detail);
        finished_ = true;
        if (produced > 0) {
            pendingError_ = std::move(reason);
            return produced;
        }
        throw InputStreamError(reason);
    }
}

}  // namespace tcpscope
