#pragma once
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "strace/fd_decoration_table.hpp"
#include "strace/strace_clock.hpp"
#include "strace/strace_line.hpp"
#include "strace/strace_log.hpp"
#include "strace/strace_parse_options.hpp"
#include "strace/syscall_decoder.hpp"

namespace tcpscope {

/// Builds a StraceLog from lines fed in file order: joins "<unfinished ...>" with its
/// "<... NAME resumed>" per pid (other pids' lines may come between), places timestamps on one
/// clock, infers the pid of unprefixed lines in "strace -f" terminal output, interns names and
/// decorations. Lines it does not understand are counted, a few kept as examples, never fatal.
class StraceLogBuilder {
public:
    /// Distinct names outside the known list that get their own number.
    static constexpr size_t kMaxDynamicNames = 4096;

    /// A builder for one log (one or several files) parsed with `options`.
    explicit StraceLogBuilder(StraceParseOptions options);
    StraceLogBuilder(const StraceLogBuilder&) = delete;
    StraceLogBuilder& operator=(const StraceLogBuilder&) = delete;

    /// Starts a file; lines without a pid get `defaultPid` (from a -ff name when `fromFileName`).
    void beginFile(std::string path, int32_t defaultPid, bool fromFileName);
    /// Feeds one line, without its newline.
    void addLine(std::string_view line);
    /// Counts a line that was too long to read (its bytes were skipped).
    void addOverlongLine(uint64_t bytes);
    /// Records a read problem of the current file.
    void addProblem(InputProblem problem);
    /// Ends the current file: flushes calls that never resumed; `bytes` read from it.
    void endFile(uint64_t bytes);
    /// Marks the log as cut short by a stop request.
    void markStopped() { log_.stopped = true; }
    /// Reserves room for the records of `bytes` more input (a hint; untouched room costs no memory).
    void reserveFor(uint64_t bytes);
    /// The log, records in time order with a per-pid index. The builder is spent afterwards.
    StraceLog finish();

private:
    /// A call printed "<unfinished ...>", waiting for its resumed line.
    struct PendingCall {
        bool active = false;
        bool pidInferred = false;
        SyscallName name = SyscallName::unknown;
        uint16_t dayWraps = 0;
        uint32_t lineNumber = 0;
        int64_t tsNs = 0;
        std::string arguments;  // reused between calls, so steady state allocates nothing
    };

    void handle(const StraceLine& line, std::string_view text, uint32_t lineNumber);
    int32_t resolvePid(const StraceLine& line, bool& inferred);
    SyscallName intern(std::string_view name);
    [[nodiscard]] SyscallRecord startRecord(int32_t pid, bool inferred, int64_t tsNs, uint16_t dayWraps,
                                            uint32_t lineNumber) const;
    void emitCall(const StraceLine& line, SyscallRecord record);
    void startPending(const StraceLine& line, SyscallRecord record);
    void resume(const StraceLine& line, SyscallRecord record);
    void emitSignal(const StraceLine& line, SyscallRecord record);
    void emitExit(const StraceLine& line, SyscallRecord record);
    void flushPending(int32_t pid);
    void push(const SyscallRecord& record);
    void noteUnparsed(std::string_view text, std::string_view reason, uint32_t lineNumber);
    void alignFileDay();

    StraceParseOptions options_;
    StraceLog log_;
    FdDecorationTable decorations_;
    SyscallDecoder decoder_;
    absl::flat_hash_map<std::string, uint16_t> nameIds_;
    absl::flat_hash_map<int32_t, PendingCall> pending_;
    // The current file.
    StraceClock clock_;
    bool fileOpen_ = false;
    uint16_t fileIndex_ = 0;
    uint32_t lineNumber_ = 0;
    int32_t defaultPid_ = 0;
    bool pidFromFileName_ = false;
    size_t fileRecordsBegin_ = 0;
    // "strace -f" on a terminal prints "[pid N]" only while several processes live.
    bool sawBracketed_ = false;
    int32_t mainPid_ = 0;
    absl::flat_hash_set<int32_t> alive_;
    absl::flat_hash_set<int32_t> children_;
    // A call line cut by "strace: Process N attached", waiting for its continuation.
    bool joining_ = false;
    uint32_t joinLineNumber_ = 0;
    std::string joinBuffer_;
    // Time of day of the first file's first line, to put -ff files on the same day.
    bool haveReferenceTime_ = false;
    int64_t referenceTimeOfDayNs_ = 0;
};

}  // namespace tcpscope
