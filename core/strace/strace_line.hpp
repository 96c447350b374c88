#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "strace/strace_clock.hpp"
#include "strace/strace_format.hpp"

namespace tcpscope {

/// What one line of strace output is.
enum class StraceLineType : uint8_t {
    Blank,
    Call,        ///< "name(args) = result"
    Unfinished,  ///< "name(args <unfinished ...>"
    Resumed,     ///< "<... name resumed>args) = result"
    Signal,      ///< "--- SIGCHLD {...} ---"
    Exit,        ///< "+++ exited with 0 +++", "+++ killed by SIGKILL +++"
    Notice,      ///< "strace: Process 123 attached" and other messages of strace itself
    Unparsed,    ///< anything else (the program's own output on a shared terminal, garbage)
};

/// One line of strace output cut into its parts. The views point into the line.
struct StraceLine {
    StraceLineType type = StraceLineType::Unparsed;
    StracePidStyle pidStyle = StracePidStyle::None;  ///< None, Bracketed or Column
    int32_t pid = 0;
    StraceStamp stamp;
    bool hasDuration = false;
    int64_t durationNs = -1;     ///< -T
    std::string_view name;       ///< syscall name; Signal: "SIGCHLD" (or "stopped")
    std::string_view arguments;  ///< Call: inside the parentheses; Unfinished: before the marker;
                                 ///< Resumed: after "resumed>" up to ')'; Signal, Exit: the text inside
    std::string_view result;     ///< Call, Resumed: after "= " (decoration, errno and annotation included)
    int32_t noticePid = 0;       ///< Notice: N of "Process N attached" (0 otherwise)
    bool attached = false;       ///< Notice: "attached" (false: "detached" or another message)
    size_t noticeSplit = std::string_view::npos;  ///< Unparsed: offset of a "strace: Process N attached"
                                                  ///< that cut this call line in two (-f on a terminal)
    std::string_view reason;                      ///< Unparsed: why
};

/// Cuts one line (without its newline) into its parts. Never fails: a line it cannot read comes
/// back as Unparsed with a reason.
StraceLine parseStraceLine(std::string_view line);

}  // namespace tcpscope
