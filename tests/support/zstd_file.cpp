#include "support/zstd_file.hpp"

#include <zstd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tcpscope::test {

std::string readZstdFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream compressed;
    compressed << in.rdbuf();
    const std::string input = compressed.str();
    ZSTD_DStream* stream = ZSTD_createDStream();
    std::string output;
    std::vector<char> buffer(ZSTD_DStreamOutSize());
    ZSTD_inBuffer inBuffer{input.data(), input.size(), 0};
    size_t last = 0;
    while (inBuffer.pos < inBuffer.size) {
        ZSTD_outBuffer outBuffer{buffer.data(), buffer.size(), 0};
        last = ZSTD_decompressStream(stream, &outBuffer, &inBuffer);
        if (ZSTD_isError(last) != 0) {
            ZSTD_freeDStream(stream);
            throw std::runtime_error(path.string() + ": " + ZSTD_getErrorName(last));
        }
        output.append(buffer.data(), outBuffer.pos);
    }
    ZSTD_freeDStream(stream);
    if (last != 0) {
        throw std::runtime_error(path.string() + ": the last zstd frame is incomplete");
    }
    return output;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> result;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) {
            result.push_back(line);
        }
    }
    return result;
}

}  // namespace tcpscope::test
