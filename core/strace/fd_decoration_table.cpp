#include "strace/fd_decoration_table.hpp"

#include <absl/strings/string_view.h>

#include <utility>

namespace tcpscope {

uint32_t FdDecorationTable::intern(std::string_view text) {
    if (const auto found = indexByText_.find(absl::string_view(text.data(), text.size()));
        found != indexByText_.end()) {
        return found->second;
    }
    if (entries_.size() >= kMaxEntries) {
        return kNone;
    }
    const auto index = static_cast<uint32_t>(entries_.size());
    entries_.push_back(parseFdDecoration(text));
    indexByText_.emplace(std::string(text), index);
    return index;
}

std::vector<FdDecoration> FdDecorationTable::release() {
    indexByText_.clear();
    return std::exchange(entries_, {});
}

}  // namespace tcpscope
