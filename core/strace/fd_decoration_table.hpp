#pragma once
#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strace/fd_decoration.hpp"

namespace tcpscope {

/// The distinct fd decorations of a log, each parsed once. A log repeats the same few decorations
/// on most lines, so records keep an index instead of their own copy.
class FdDecorationTable {
public:
    /// Index meaning "no decoration".
    static constexpr uint32_t kNone = UINT32_MAX;
    /// The most distinct decorations kept; later new ones are not interned (kNone).
    static constexpr size_t kMaxEntries = size_t{1} << 22;

    /// The index of `text` (the part between '<' and '>'), parsing it the first time it is seen.
    uint32_t intern(std::string_view text);
    /// The decorations in index order.
    [[nodiscard]] const std::vector<FdDecoration>& entries() const { return entries_; }
    /// Moves the decorations out, leaving the table empty.
    std::vector<FdDecoration> release();

private:
    std::vector<FdDecoration> entries_;
    absl::flat_hash_map<std::string, uint32_t> indexByText_;
};

}  // namespace tcpscope
