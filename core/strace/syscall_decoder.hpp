#pragma once
#include <string_view>
#include <vector>

#include "strace/argument_list.hpp"
#include "strace/fd_decoration_table.hpp"
#include "strace/syscall_record.hpp"

namespace tcpscope {

/// Reads the arguments and return value of the calls that matter into a SyscallRecord: fds and
/// their decorations, addresses, socket options, byte counts, ready fds. Calls of kind Other only
/// get their return value read, which keeps the common lines (mmap, openat, ...) cheap.
class SyscallDecoder {
public:
    /// Ready fds one call may add at most.
    static constexpr size_t kMaxReadyFdsPerCall = 1024;

    /// Decorations are interned into `decorations`, ready fds appended to `readyFds`.
    SyscallDecoder(FdDecorationTable& decorations, std::vector<ReadyFd>& readyFds)
        : decorations_(decorations), readyFds_(readyFds) {}

    /// Fills `record` (its name and kind already set) from `arguments` and, when `hasResult`, the
    /// text after "= ". Unknown or malformed parts leave their fields at their defaults.
    void decode(const ArgumentList& arguments, std::string_view result, bool hasResult, SyscallRecord& record);

private:
    void readFd(std::string_view argument, int32_t& fd, uint32_t& decoration);
    void readAddress(std::string_view argument, SyscallRecord& record);
    void readSocketOption(const ArgumentList& arguments, SyscallRecord& record);
    void readTransfer(const ArgumentList& arguments, SyscallRecord& record);
    void readWait(const ArgumentList& arguments, std::string_view annotation, SyscallRecord& record);

    FdDecorationTable& decorations_;
    std::vector<ReadyFd>& readyFds_;
};

}  // namespace tcpscope
