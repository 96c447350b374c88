#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcpscope {

/// A file written by "strace -ff -o NAME": NAME.PID.
struct StraceFileName {
    std::string base;  ///< NAME (with its directory)
    int32_t pid = 0;
};

/// Recognises NAME.PID (PID all digits, 1..4194304); nullopt for other names.
std::optional<StraceFileName> parseStraceFileName(std::string_view path);

/// The files of one log: one plain file, or the NAME.PID files of one "strace -ff" run.
struct StraceFileGroup {
    std::string base;                ///< NAME, or the plain file's path
    std::vector<std::string> paths;  ///< sorted by pid
};

/// Groups paths given together: NAME.PID files with the same NAME form one group (one log of
/// several processes); every other path is a group of its own. Groups keep the order of their
/// first path.
std::vector<StraceFileGroup> groupStraceFiles(const std::vector<std::string>& paths);

}  // namespace tcpscope
