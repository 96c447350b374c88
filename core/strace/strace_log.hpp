#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "capture/capture_error.hpp"
#include "strace/fd_decoration.hpp"
#include "strace/strace_format.hpp"
#include "strace/syscall_record.hpp"

namespace tcpscope {

/// A line the parser skipped, kept as an example for the report.
struct UnparsedLine {
    uint16_t fileIndex = 0;
    uint32_t lineNumber = 0;
    std::string text;  ///< the line, cut to its first 200 bytes
    std::string reason;
};

/// One input file of a log (several for strace -ff).
struct StraceFileInfo {
    std::string path;
    int32_t defaultPid = 0;  ///< pid given to lines that print none (from NAME.PID or the caller)
    StraceFormat format;
    uint64_t bytes = 0;  ///< bytes read (decompressed)
    uint64_t lines = 0;
    uint64_t unparsedLines = 0;
};

/// The records of one pid, as indexes into StraceLog::records, in time order.
struct StraceProcess {
    int32_t pid = 0;
    std::vector<uint32_t> records;
};

/// Counts for the report ("N lines, M calls, K not understood").
struct StraceParseStats {
    uint64_t lines = 0;
    uint64_t blankLines = 0;
    uint64_t noticeLines = 0;             ///< strace's own messages ("Process N attached", ...)
    uint64_t unparsedLines = 0;           ///< lines not understood and skipped
    uint64_t joinedCalls = 0;             ///< unfinished + resumed pairs joined
    uint64_t unfinishedNeverResumed = 0;  ///< kept as CallSplit::UnfinishedOnly
    uint64_t resumedWithoutStart = 0;     ///< kept as CallSplit::ResumedOnly
    uint64_t droppedOtherCalls = 0;       ///< kind Other calls not kept (StraceParseOptions::keepOtherCalls)
};

/// A parsed strace log: its records in time order (file order for equal times, so a log without
/// timestamps keeps its lines' order), an index of each pid's records, the tables the records
/// refer to, the format the lines showed, and what could not be read.
struct StraceLog {
    StraceFormat format;                    ///< of the first file (the others normally agree)
    std::vector<SyscallRecord> records;     ///< all pids, sorted by tsNs
    std::vector<StraceProcess> processes;   ///< sorted by pid
    std::vector<FdDecoration> decorations;  ///< SyscallRecord::fdDecoration indexes this
    std::vector<ReadyFd> readyFds;          ///< SyscallRecord::readyBegin indexes this
    std::vector<std::string> dynamicNames;  ///< names of SyscallName values from kFirstDynamicSyscallName
    std::vector<StraceFileInfo> files;
    StraceParseStats stats;
    std::vector<UnparsedLine> unparsedExamples;  ///< the first few skipped lines
    std::vector<InputProblem> problems;          ///< read errors and warnings (truncated gzip, ...)
    bool stopped = false;                        ///< the caller's stop token ended the parse early

    /// The syscall's name as strace printed it ("sendto", "mmap"); "" for signal and exit records.
    [[nodiscard]] std::string_view nameOf(const SyscallRecord& record) const;
    /// The decoration of `index` (a record's fdDecoration or otherFdDecoration), or nullptr.
    [[nodiscard]] const FdDecoration* decoration(uint32_t index) const {
        return index < decorations.size() ? &decorations[index] : nullptr;
    }
    /// The ready fds a Wait record reported.
    [[nodiscard]] std::span<const ReadyFd> readyFdsOf(const SyscallRecord& record) const;
    /// Indexes into `records` of the records of `pid`, in time order; empty if the log has none.
    [[nodiscard]] std::span<const uint32_t> recordIndexesOf(int32_t pid) const;
    /// The pids in the log, ascending.
    [[nodiscard]] std::vector<int32_t> pids() const;
};

}  // namespace tcpscope
