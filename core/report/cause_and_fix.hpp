#pragma once
#include <string_view>

#include "finding/finding_kind.hpp"

namespace tcpscope {

/// What an incident report says once per cause: why a kind of finding happens and what fixes it.
struct CauseAndFix {
    std::string_view cause;  ///< one sentence: the mechanism
    std::string_view fix;    ///< one sentence: what to change
};

/// The cause and the fix of `kind`, as the incident report's summary and sections state them.
CauseAndFix causeAndFix(FindingKind kind);

}  // namespace tcpscope
