#include "present/syscall_notes.hpp"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <limits>

namespace tcpscope {

namespace {

std::string fileNameOf(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

// The index in log.files of the file named `logFile` (a path or a bare name), if any.
std::optional<uint16_t> fileIndexOf(const StraceLog& log, const std::string& logFile) {
    const std::string wanted = fileNameOf(logFile);
    for (size_t index = 0; index < log.files.size() && index <= UINT16_MAX; ++index) {
        if (log.files[index].path == logFile || fileNameOf(log.files[index].path) == wanted) {
            return static_cast<uint16_t>(index);
        }
    }
    return std::nullopt;
}

}  // namespace

SyscallNoteTarget syscallNoteTarget(const StraceAlignment& alignment, SyscallLocation location) {
    const StraceLog& log = alignment.logs.at(location.log).log;
    const SyscallRecord& call = log.records.at(location.record);
    const std::string path = call.fileIndex < log.files.size() ? log.files[call.fileIndex].path : std::string();
    return SyscallNoteTarget{fileNameOf(path), call.lineNumber, alignment.captureTsNs(location.log, call)};
}

std::optional<SyscallLocation> findNoteSyscall(const StraceAlignment& alignment, const std::string& logFile,
                                               uint32_t line) {
    for (uint32_t logIndex = 0; logIndex < alignment.logs.size(); ++logIndex) {
        const StraceLog& log = alignment.logs[logIndex].log;
        const std::optional<uint16_t> file = fileIndexOf(log, logFile);
        if (!file) {
            continue;
        }
        for (uint32_t record = 0; record < log.records.size(); ++record) {
            if (log.records[record].fileIndex == *file && log.records[record].lineNumber == line) {
                return SyscallLocation{logIndex, record};
            }
        }
    }
    return std::nullopt;
}

SyscallNoteLookup lookUpSyscallNote(const StraceAlignment* alignment, const std::string& logColonLine) {
    const auto colon = logColonLine.rfind(':');
    uint32_t line = 0;
    const char* lineEnd = logColonLine.data() + logColonLine.size();
    if (colon == std::string::npos || colon == 0 ||
        std::from_chars(logColonLine.data() + colon + 1, lineEnd, line).ptr != lineEnd || line == 0) {
        return {std::nullopt, fmt::format("--add-syscall wants LOG:LINE, the strace file and the line its call starts "
                                          "on, e.g. proxy.strace:40 (got '{}')",
                                          logColonLine)};
    }
    const std::string logFile = logColonLine.substr(0, colon);
    if (alignment == nullptr) {
        return {std::nullopt, fmt::format("{}: no strace log given: add it with --strace {}", logFile, logFile)};
    }
    if (const auto location = findNoteSyscall(*alignment, logFile, line)) {
        return {syscallNoteTarget(*alignment, *location), {}};
    }
    // The nearest lines that do start a call, so the user can pick one.
    uint32_t before = 0;
    uint32_t after = std::numeric_limits<uint32_t>::max();
    bool known = false;
    for (const AlignedLog& aligned : alignment->logs) {
        const std::optional<uint16_t> file = fileIndexOf(aligned.log, logFile);
        if (!file) {
            continue;
        }
        known = true;
        for (const SyscallRecord& call : aligned.log.records) {
            if (call.fileIndex != *file) {
                continue;
            }
            if (call.lineNumber < line) {
                before = std::max(before, call.lineNumber);
            } else {
                after = std::min(after, call.lineNumber);
            }
        }
    }
    if (!known) {
        return {std::nullopt, fmt::format("{}: not one of the strace logs given with --strace", logFile)};
    }
    std::string nearest;
    if (before != 0 && after != std::numeric_limits<uint32_t>::max()) {
        nearest = fmt::format(" (nearest: lines {} and {})", before, after);
    } else if (before != 0 || after != std::numeric_limits<uint32_t>::max()) {
        nearest = fmt::format(" (nearest: line {})", before != 0 ? before : after);
    }
    return {std::nullopt, fmt::format("{}: line {}: no system call starts there{}", logFile, line, nearest)};
}

}  // namespace tcpscope
