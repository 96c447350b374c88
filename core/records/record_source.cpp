#include "records/record_source.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <string_view>
#include <system_error>

#include "records/sha1.hpp"

namespace tcpscope {

std::string captureIdOf(const std::string& host, const std::vector<std::string>& paths, int64_t firstTsNs) {
    std::string input = host;
    for (const std::string& path : paths) {
        std::error_code error;
        const auto size = std::filesystem::file_size(path, error);
        input += fmt::format("\n{}\n{}", std::filesystem::path(path).filename().string(), error ? 0 : size);
    }
    input += fmt::format("\n{}", firstTsNs);
    const Sha1Digest digest = sha1({reinterpret_cast<const uint8_t*>(input.data()), input.size()});
    std::string id;
    for (size_t i = 0; i < 8; ++i) {
        id += fmt::format("{:02x}", digest[i]);
    }
    return id;
}

}  // namespace tcpscope
