#include "decode/tcp_options.hpp"

#include <algorithm>

#include "decode/byte_order.hpp"

namespace tcpscope {
namespace {

constexpr uint32_t kMssLength = 4;
constexpr uint32_t kWindowScaleLength = 3;
constexpr uint32_t kSackPermittedLength = 2;
constexpr uint32_t kTimestampLength = 10;
constexpr uint32_t kSackBlockBytes = 8;

// Reset by copying a constant: `out = TcpOptions{}` builds the struct on the stack with narrow
// stores and reloads it wide, a store-forwarding stall on every packet.
constexpr TcpOptions kNoOptions{};

/// Stores one option whose kind and length byte have been checked against the header and capture.
/// Returns false when the length is wrong for the kind.
bool storeOption(uint8_t kind, const uint8_t* body, uint32_t length, TcpOptions& out) {
    switch (kind) {
    case tcpoption::kMss:
        if (length != kMssLength) {
            return false;
        }
        out.mss = loadBigEndian16(body);
        return true;
    case tcpoption::kWindowScale:
        if (length != kWindowScaleLength) {
            return false;
        }
        out.windowScaleSent = body[0];
        out.windowScale = static_cast<int8_t>(std::min(body[0], kMaxWindowScale));
        return true;
    case tcpoption::kSackPermitted:
        if (length != kSackPermittedLength) {
            return false;
        }
        out.sackPermitted = true;
        return true;
    case tcpoption::kTimestamp:
        if (length != kTimestampLength) {
            return false;
        }
        out.hasTimestamp = true;
        out.tsVal = loadBigEndian32(body);
        out.tsEcr = loadBigEndian32(body + 4);
        return true;
    case tcpoption::kSack: {
        const uint32_t blockBytes = length - 2;
        if (blockBytes == 0 || blockBytes % kSackBlockBytes != 0) {
            return false;
        }
        // 40 option bytes hold at most 4 blocks, so the min() only guards the array.
        const auto count = static_cast<uint8_t>(std::min<uint32_t>(blockBytes / kSackBlockBytes, 4));
        for (size_t i = 0; i < count; ++i) {
            out.sack[i].left = loadBigEndian32(body + i * size_t{kSackBlockBytes});
            out.sack[i].right = loadBigEndian32(body + i * size_t{kSackBlockBytes} + 4);
        }
        out.sackCount = count;
        return true;
    }
    default:
        return true;  // an option the analysis does not use
    }
}

}  // namespace

void parseTcpOptions(const uint8_t* options, uint32_t headerOptionBytes, uint32_t capturedOptionBytes,
                     TcpOptions& out) {
    out = kNoOptions;
    const uint32_t available = std::min(headerOptionBytes, capturedOptionBytes);
    uint32_t position = 0;
    while (position < headerOptionBytes) {
        if (position >= available) {
            out.truncated = true;
            break;
        }
        const uint8_t kind = options[position];
        if (kind == tcpoption::kEndOfList) {
            break;
        }
        if (kind == tcpoption::kNop) {
            ++position;
            continue;
        }
        if (headerOptionBytes - position < 2) {
            out.malformed = true;  // a kind byte with no room for its length
            break;
        }
        if (available - position < 2) {
            out.truncated = true;
            break;
        }
        const uint32_t length = options[position + 1];
        if (length < 2 || length > headerOptionBytes - position) {
            out.malformed = true;  // cannot find the next option: stop, keep what was read
            break;
        }
        if (length > available - position) {
            out.truncated = true;
            break;
        }
        if (!storeOption(kind, options + position + 2, length, out)) {
            out.malformed = true;
        }
        position += length;
    }
}

}  // namespace tcpscope
