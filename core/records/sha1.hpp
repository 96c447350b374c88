#pragma once
#include <array>
#include <cstdint>
#include <span>

namespace tcpscope {

/// A SHA-1 digest.
using Sha1Digest = std::array<uint8_t, 20>;

/// SHA-1 of `bytes` (OpenSSL's libcrypto). For identifiers only (Community ID, capture ids), not security.
Sha1Digest sha1(std::span<const uint8_t> bytes);

}  // namespace tcpscope
