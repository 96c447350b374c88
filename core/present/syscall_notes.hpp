#pragma once
#include <optional>
#include <string>

#include "align/strace_alignment.hpp"
#include "annotate/note.hpp"
#include "present/traced_call.hpp"

namespace tcpscope {

/// The note target of the call at `location`: the name of the strace file it was read from (no
/// folders, as capture files are named in the sidecar), the line it starts on, and its time on
/// the capture's clock.
SyscallNoteTarget syscallNoteTarget(const StraceAlignment& alignment, SyscallLocation location);

/// The call a syscall note is pinned to: in the log file of that name (or path), the call that
/// starts on that line. nullopt when no log of that name is loaded or no call starts there.
std::optional<SyscallLocation> findNoteSyscall(const StraceAlignment& alignment, const std::string& logFile,
                                               uint32_t line);

/// What `tcpscope-cli notes --add-syscall LOG:LINE` pins a note to, or the one-line reason why
/// not ("proxy.strace: line 41: no system call starts there (nearest: lines 40 and 43)").
struct SyscallNoteLookup {
    std::optional<SyscallNoteTarget> target;
    std::string error;
};
SyscallNoteLookup lookUpSyscallNote(const StraceAlignment* alignment, const std::string& logColonLine);

}  // namespace tcpscope
