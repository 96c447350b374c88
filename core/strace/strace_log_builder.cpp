#include "strace/strace_log_builder.hpp"

#include <absl/strings/string_view.h>

#include <algorithm>
#include <utility>

#include "strace/errno_names.hpp"
#include "strace/record_order.hpp"
#include "strace/text_scan.hpp"
#include "text/valid_utf8.hpp"

namespace tcpscope {
namespace {

constexpr size_t kExampleBytes = 200;
constexpr int64_t kNsPerDay = int64_t{86'400} * 1'000'000'000;

bool isKept(SyscallKind kind, const StraceParseOptions& options) {
    return kind != SyscallKind::Other || options.keepOtherCalls;
}

/// Which style of fd decorations the distinct decorations show.
StraceFdStyle fdStyleOf(const std::vector<FdDecoration>& decorations) {
    // -y prints sockets as "socket:[inode]"; -yy names their protocol and endpoints.
    for (const FdDecoration& decoration : decorations) {
        const bool inodeOnlySocket =
            decoration.kind == FdDecorationKind::OtherSocket && decoration.text.substr(0, 8) == "socket:[";
        if (decoration.isSocket() && !inodeOnlySocket) {
            return StraceFdStyle::Endpoints;
        }
    }
    return decorations.empty() ? StraceFdStyle::None : StraceFdStyle::Paths;
}

}  // namespace

StraceLogBuilder::StraceLogBuilder(StraceParseOptions options)
    : options_(options), decoder_(decorations_, log_.readyFds), clock_(options.timeBase) {}

void StraceLogBuilder::beginFile(std::string path, int32_t defaultPid, bool fromFileName) {
    if (fileOpen_) {
        endFile(0);
    }
    fileOpen_ = true;
    fileIndex_ = static_cast<uint16_t>(std::min<size_t>(log_.files.size(), UINT16_MAX));
    StraceFileInfo info;
    info.path = std::move(path);
    info.defaultPid = defaultPid;
    if (fromFileName) {
        info.format.pidStyle = StracePidStyle::FileName;
    }
    log_.files.push_back(std::move(info));
    clock_ = StraceClock(options_.timeBase);
    lineNumber_ = 0;
    defaultPid_ = defaultPid;
    pidFromFileName_ = fromFileName;
    fileRecordsBegin_ = log_.records.size();
    sawBracketed_ = false;
    mainPid_ = 0;
    alive_.clear();
    children_.clear();
    joining_ = false;
}

void StraceLogBuilder::addLine(std::string_view text) {
    if (!fileOpen_) {
        beginFile("-", options_.defaultPid, false);
    }
    ++lineNumber_;
    ++log_.stats.lines;
    ++log_.files.back().lines;
    if (joining_) {
        // The rest of a call that "strace: Process N attached" cut in two.
        joining_ = false;
        if (joinBuffer_.size() + text.size() <= options_.maxLineBytes) {
            joinBuffer_.append(text);
            const std::string_view joined = joinBuffer_;
            handle(parseStraceLine(joined), joined, joinLineNumber_);
            return;
        }
        noteUnparsed(joinBuffer_, "call cut by a strace message", joinLineNumber_);
    }
    const StraceLine line = parseStraceLine(text);
    if (line.type == StraceLineType::Unparsed && line.noticeSplit != std::string_view::npos) {
        const StraceLine notice = parseStraceLine(text.substr(line.noticeSplit));
        if (notice.attached) {
            children_.insert(notice.noticePid);
        }
        ++log_.stats.noticeLines;
        joining_ = true;
        joinLineNumber_ = lineNumber_;
        joinBuffer_.assign(text.substr(0, line.noticeSplit));
        return;
    }
    handle(line, text, lineNumber_);
}

void StraceLogBuilder::addOverlongLine(uint64_t bytes) {
    if (!fileOpen_) {
        beginFile("-", options_.defaultPid, false);
    }
    ++lineNumber_;
    ++log_.stats.lines;
    ++log_.files.back().lines;
    std::string reason;
    if (log_.unparsedExamples.size() < options_.maxUnparsedExamples) {
        reason = "line longer than " + std::to_string(options_.maxLineBytes) + " bytes (" + std::to_string(bytes) + ")";
    }
    noteUnparsed({}, reason, lineNumber_);
}

void StraceLogBuilder::reserveFor(uint64_t bytes) {
    // Lines average well over 96 bytes, so this rarely regrows; the pages never written are never
    // backed by memory. Capped, so a bogus size cannot ask for the moon.
    constexpr uint64_t kMaxReservedRecords = uint64_t{1} << 24;
    const uint64_t wanted = std::min<uint64_t>(log_.records.size() + bytes / 96, kMaxReservedRecords);
    if (wanted > log_.records.capacity()) {
        log_.records.reserve(static_cast<size_t>(wanted));
    }
}

void StraceLogBuilder::addProblem(InputProblem problem) {
    log_.problems.push_back(std::move(problem));
}

void StraceLogBuilder::noteUnparsed(std::string_view text, std::string_view reason, uint32_t lineNumber) {
    ++log_.stats.unparsedLines;
    if (fileOpen_) {
        ++log_.files.back().unparsedLines;
    }
    if (log_.unparsedExamples.size() < options_.maxUnparsedExamples) {
        log_.unparsedExamples.push_back(
            UnparsedLine{fileIndex_, lineNumber, std::string(utf8Prefix(text, kExampleBytes)), std::string(reason)});
    }
}

SyscallName StraceLogBuilder::intern(std::string_view name) {
    if (const auto found = nameIds_.find(absl::string_view(name.data(), name.size())); found != nameIds_.end()) {
        return static_cast<SyscallName>(found->second);
    }
    uint16_t id = 0;
    if (const auto known = knownSyscallName(name)) {
        id = static_cast<uint16_t>(*known);
    } else if (log_.dynamicNames.size() < kMaxDynamicNames) {
        id = static_cast<uint16_t>(kFirstDynamicSyscallName + log_.dynamicNames.size());
        log_.dynamicNames.emplace_back(name);
    } else {
        return SyscallName::unknown;
    }
    nameIds_.emplace(std::string(name), id);
    return static_cast<SyscallName>(id);
}

int32_t StraceLogBuilder::resolvePid(const StraceLine& line, bool& inferred) {
    StraceFormat& format = log_.files.back().format;
    if (line.pidStyle == StracePidStyle::Bracketed) {
        format.pidStyle = StracePidStyle::Bracketed;
        sawBracketed_ = true;
        if (mainPid_ == 0 && !children_.contains(line.pid)) {
            // The traced program: the first pid that is not a child strace announced. Calls it
            // left unfinished before any prefix appeared wait under the default pid.
            mainPid_ = line.pid;
            if (const auto waiting = pending_.find(defaultPid_); waiting != pending_.end() && defaultPid_ != mainPid_) {
                PendingCall moved = std::move(waiting->second);
                pending_.erase(waiting);
                pending_[mainPid_] = std::move(moved);
            }
        }
        alive_.insert(line.pid);
        return line.pid;
    }
    if (line.pidStyle == StracePidStyle::Column) {
        if (format.pidStyle != StracePidStyle::Bracketed) {
            format.pidStyle = StracePidStyle::Column;
        }
        return line.pid;
    }
    inferred = !pidFromFileName_;
    if (sawBracketed_) {
        // Without a prefix only one process was alive.
        if (alive_.size() == 1) {
            return *alive_.begin();
        }
        if (mainPid_ != 0) {
            return mainPid_;
        }
    }
    return defaultPid_;
}

SyscallRecord StraceLogBuilder::startRecord(int32_t pid, bool inferred, int64_t tsNs, uint16_t dayWraps,
                                            uint32_t lineNumber) const {
    SyscallRecord record;
    record.pid = pid;
    record.tsNs = tsNs;
    record.dayWraps = dayWraps;
    record.lineNumber = lineNumber;
    record.fileIndex = fileIndex_;
    if (inferred) {
        record.flags |= kPidInferred;
    }
    return record;
}

void StraceLogBuilder::handle(const StraceLine& line, std::string_view text, uint32_t lineNumber) {
    switch (line.type) {
        case StraceLineType::Blank: ++log_.stats.blankLines; return;
        case StraceLineType::Notice:
            ++log_.stats.noticeLines;
            if (line.attached) {
                children_.insert(line.noticePid);
            }
            return;
        case StraceLineType::Unparsed: noteUnparsed(text, line.reason, lineNumber); return;
        default: break;
    }
    bool inferred = false;
    const int32_t pid = resolvePid(line, inferred);
    int64_t tsNs = clock_.lastNs();
    uint16_t dayWraps = clock_.dayWraps();
    if (line.stamp.shape != StampShape::None && !clock_.place(line.stamp, tsNs, dayWraps)) {
        noteUnparsed(text, "timestamp in another format than the log's first one", lineNumber);
        return;
    }
    StraceFormat& format = log_.files.back().format;
    if (line.hasDuration) {
        format.durations = true;
    }
    SyscallRecord record = startRecord(pid, inferred, tsNs, dayWraps, lineNumber);
    switch (line.type) {
        case StraceLineType::Call: emitCall(line, record); break;
        case StraceLineType::Unfinished: startPending(line, record); break;
        case StraceLineType::Resumed: resume(line, record); break;
        case StraceLineType::Signal: emitSignal(line, record); break;
        case StraceLineType::Exit: emitExit(line, record); break;
        default: break;
    }
}

void StraceLogBuilder::push(const SyscallRecord& record) {
    if (!isKept(record.kind, options_)) {
        ++log_.stats.droppedOtherCalls;
        return;
    }
    log_.records.push_back(record);
    if (record.kind == SyscallKind::ProcessCreate && record.succeeded() && record.returnValue > 0 &&
        record.returnValue <= INT32_MAX) {
        children_.insert(static_cast<int32_t>(record.returnValue));
    }
}

void StraceLogBuilder::emitCall(const StraceLine& line, SyscallRecord record) {
    flushPending(record.pid);  // a call left unfinished on this pid will not resume any more
    record.name = intern(line.name);
    record.kind = syscallKindOf(record.name);
    record.split = CallSplit::Whole;
    record.durationNs = line.hasDuration ? line.durationNs : SyscallRecord::kUnknown;
    ArgumentList arguments;
    if (record.kind != SyscallKind::Other) {
        arguments.append(line.arguments);
    }
    decoder_.decode(arguments, line.result, true, record);
    push(record);
}

void StraceLogBuilder::startPending(const StraceLine& line, SyscallRecord record) {
    flushPending(record.pid);
    PendingCall& pending = pending_[record.pid];
    pending.active = true;
    pending.pidInferred = record.has(kPidInferred);
    pending.name = intern(line.name);
    pending.tsNs = record.tsNs;
    pending.dayWraps = record.dayWraps;
    pending.lineNumber = record.lineNumber;
    // Only calls the decoder reads need their arguments kept.
    if (syscallKindOf(pending.name) != SyscallKind::Other) {
        pending.arguments.assign(line.arguments);
    } else {
        pending.arguments.clear();
    }
}

void StraceLogBuilder::resume(const StraceLine& line, SyscallRecord record) {
    const SyscallName name = intern(line.name);
    const auto found = pending_.find(record.pid);
    const bool matches = found != pending_.end() && found->second.active && found->second.name == name;
    if (!matches) {
        flushPending(record.pid);
        // The start is not in the log (attached mid-call, or its line was lost): arguments unknown.
        ++log_.stats.resumedWithoutStart;
        record.name = name;
        record.kind = syscallKindOf(name);
        record.split = CallSplit::ResumedOnly;
        record.durationNs = line.hasDuration ? line.durationNs : SyscallRecord::kUnknown;
        decoder_.decode(ArgumentList(), line.result, !line.result.empty(), record);
        push(record);
        return;
    }
    PendingCall& pending = found->second;
    pending.active = false;
    ++log_.stats.joinedCalls;
    const int64_t resumedNs = record.tsNs;
    record.name = name;
    record.kind = syscallKindOf(name);
    record.split = CallSplit::Joined;
    record.tsNs = pending.tsNs;
    record.dayWraps = pending.dayWraps;
    record.lineNumber = pending.lineNumber;
    record.flags = pending.pidInferred ? kPidInferred : 0;
    const bool timed = clock_.base() != StraceTimeBase::None;
    // Without -T the resumed line's time bounds the call (never negative, though lines of several
    // processes may step back a little).
    record.durationNs = line.hasDuration ? line.durationNs
                        : timed          ? std::max<int64_t>(0, resumedNs - pending.tsNs)
                                         : SyscallRecord::kUnknown;
    ArgumentList arguments;
    if (record.kind != SyscallKind::Other) {
        arguments.append(pending.arguments);
        arguments.append(line.arguments);
    }
    decoder_.decode(arguments, line.result, !line.result.empty(), record);
    push(record);
}

void StraceLogBuilder::emitSignal(const StraceLine& line, SyscallRecord record) {
    record.kind = SyscallKind::Signal;
    record.returnKind = ReturnKind::None;
    if (line.name == "stopped") {
        // "--- stopped by SIGSTOP ---"
        record.flags |= kStopped;
        const size_t by = line.arguments.find("SIG");
        if (by != std::string_view::npos) {
            const std::string_view rest = line.arguments.substr(by);
            record.signal = static_cast<int16_t>(signalFromName(rest.substr(0, rest.find(' '))));
        }
    } else {
        record.signal = static_cast<int16_t>(signalFromName(line.name));
    }
    push(record);
}

void StraceLogBuilder::emitExit(const StraceLine& line, SyscallRecord record) {
    flushPending(record.pid);
    alive_.erase(record.pid);
    record.kind = SyscallKind::ProcessExit;
    record.returnKind = ReturnKind::None;
    constexpr std::string_view kExitedPrefix = "exited with ";
    constexpr std::string_view kKilledPrefix = "killed by ";
    const std::string_view text = line.arguments;
    if (text.substr(0, kExitedPrefix.size()) == kExitedPrefix) {
        if (const auto status = strace_text::parseInteger(text.substr(kExitedPrefix.size()))) {
            record.returnKind = ReturnKind::Value;
            record.returnValue = *status;
        }
    } else if (text.substr(0, kKilledPrefix.size()) == kKilledPrefix) {
        const std::string_view rest = text.substr(kKilledPrefix.size());
        record.flags |= kKilled;
        record.signal = static_cast<int16_t>(signalFromName(rest.substr(0, rest.find(' '))));
        if (rest.find("(core dumped)") != std::string_view::npos) {
            record.flags |= kCoreDumped;
        }
    }
    push(record);
}

void StraceLogBuilder::flushPending(int32_t pid) {
    const auto found = pending_.find(pid);
    if (found == pending_.end() || !found->second.active) {
        return;
    }
    PendingCall& pending = found->second;
    pending.active = false;
    ++log_.stats.unfinishedNeverResumed;
    SyscallRecord record = startRecord(pid, pending.pidInferred, pending.tsNs, pending.dayWraps, pending.lineNumber);
    record.name = pending.name;
    record.kind = syscallKindOf(pending.name);
    record.split = CallSplit::UnfinishedOnly;
    ArgumentList arguments;
    if (record.kind != SyscallKind::Other) {
        arguments.append(pending.arguments);
    }
    decoder_.decode(arguments, {}, false, record);
    push(record);
}

void StraceLogBuilder::alignFileDay() {
    // strace -ff files of one run share a clock, but each counts midnights from its own first
    // line: a child started after midnight is a day later than its parent's first line.
    if (clock_.base() != StraceTimeBase::TimeOfDay || fileRecordsBegin_ >= log_.records.size()) {
        return;
    }
    int64_t firstNs = log_.records[fileRecordsBegin_].tsNs;
    for (size_t index = fileRecordsBegin_; index < log_.records.size(); ++index) {
        firstNs = std::min(firstNs, log_.records[index].tsNs);
    }
    if (!haveReferenceTime_) {
        haveReferenceTime_ = true;
        referenceTimeOfDayNs_ = firstNs;
        return;
    }
    if (firstNs + kNsPerDay / 2 >= referenceTimeOfDayNs_) {
        return;
    }
    for (size_t index = fileRecordsBegin_; index < log_.records.size(); ++index) {
        log_.records[index].tsNs += kNsPerDay;
        ++log_.records[index].dayWraps;
    }
}

void StraceLogBuilder::endFile(uint64_t bytes) {
    if (!fileOpen_) {
        return;
    }
    if (joining_) {
        joining_ = false;
        noteUnparsed(joinBuffer_, "call cut by a strace message", joinLineNumber_);
    }
    for (auto& [pid, pending] : pending_) {
        if (pending.active) {
            flushPending(pid);
        }
    }
    pending_.clear();
    // Lines printed before the first "[pid N]" belong to the traced program, known only now.
    if (mainPid_ != 0 && defaultPid_ == 0) {
        for (size_t index = fileRecordsBegin_; index < log_.records.size(); ++index) {
            SyscallRecord& record = log_.records[index];
            if (record.pid == 0 && record.has(kPidInferred)) {
                record.pid = mainPid_;
            }
        }
    }
    alignFileDay();
    StraceFileInfo& info = log_.files.back();
    info.bytes = bytes;
    info.format.timeBase = clock_.base();
    info.format.fractionDigits = clock_.fractionDigits();
    fileOpen_ = false;
}

StraceLog StraceLogBuilder::finish() {
    if (fileOpen_) {
        endFile(0);
    }
    log_.decorations = decorations_.release();
    const StraceFdStyle fdStyle = fdStyleOf(log_.decorations);
    for (StraceFileInfo& info : log_.files) {
        info.format.fdStyle = fdStyle;
    }
    if (!log_.files.empty()) {
        log_.format = log_.files.front().format;
    }
    sortRecordsByTime(log_.records);
    log_.processes = indexProcesses(log_.records);
    return std::move(log_);
}

}  // namespace tcpscope
