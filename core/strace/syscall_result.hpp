#pragma once
#include <string_view>

#include "strace/syscall_record.hpp"

namespace tcpscope {

/// The parts of a return value that only some calls need.
struct ResultDetails {
    std::string_view decoration;  ///< the returned fd's decoration (socket, accept, dup with -y)
    std::string_view annotation;  ///< what follows the value: "(in [5], left {...})", "([{fd=5, ...}])"
};

/// Reads the text after "= " into record.returnKind, returnValue and errnoCode: "0", "5<TCP:[...]>",
/// "0x7fa03d06c000", "-1 EINPROGRESS (Operation now in progress)", "-1 (errno 600)", "?",
/// "? ERESTARTSYS (To be restarted if SA_RESTART is set)", "1 ([{fd=5, revents=POLLIN}])".
ResultDetails parseSyscallResult(std::string_view text, SyscallRecord& record);

}  // namespace tcpscope
