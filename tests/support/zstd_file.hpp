#pragma once
// Reads a zstd file of one or more frames back into text, for tests of what the exports wrote.
#include <filesystem>
#include <string>
#include <vector>

namespace tcpscope::test {

/// The whole decompressed content of `path` (every frame); throws std::runtime_error if it is not zstd.
std::string readZstdFile(const std::filesystem::path& path);

/// The non-empty lines of `text`.
std::vector<std::string> lines(const std::string& text);

}  // namespace tcpscope::test
