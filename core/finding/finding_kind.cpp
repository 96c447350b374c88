#include "finding/finding_kind.hpp"

#include "finding/kind_info.hpp"

namespace tcpscope {

std::string_view findingKindName(FindingKind kind) {
    return kindInfo(kind).name;
}

std::string_view findingKindTitle(FindingKind kind) {
    return kindInfo(kind).title;
}

std::optional<FindingKind> parseFindingKind(std::string_view name) {
    for (const FindingKind kind : kFindingKinds) {
        if (findingKindName(kind) == name) {
            return kind;
        }
    }
    return std::nullopt;
}

}  // namespace tcpscope
