#include "records/sha1.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace tcpscope {

Sha1Digest sha1(std::span<const uint8_t> bytes) {
    Sha1Digest digest{};
    unsigned int length = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, EVP_sha1(), nullptr) != 1 ||
        length != digest.size()) {
        throw std::runtime_error("SHA-1 is not available from libcrypto");
    }
    return digest;
}

}  // namespace tcpscope
