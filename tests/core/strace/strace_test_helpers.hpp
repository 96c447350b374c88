#pragma once
// Helpers shared by the strace parser tests.
#include <string>
#include <string_view>
#include <vector>

#include "strace/strace_reader.hpp"

namespace tcpscope::testing {

/// The records of `log` whose syscall name is `name`, in log order.
inline std::vector<SyscallRecord> recordsNamed(const StraceLog& log, std::string_view name) {
    std::vector<SyscallRecord> found;
    for (const SyscallRecord& record : log.records) {
        if (log.nameOf(record) == name) {
            found.push_back(record);
        }
    }
    return found;
}

/// The records of `log` of `kind`, in log order.
inline std::vector<SyscallRecord> recordsOfKind(const StraceLog& log, SyscallKind kind) {
    std::vector<SyscallRecord> found;
    for (const SyscallRecord& record : log.records) {
        if (record.kind == kind) {
            found.push_back(record);
        }
    }
    return found;
}

/// The one record of a single-line log; fails the test if there is not exactly one.
SyscallRecord onlyRecord(const StraceLog& log);

/// The decoration text of a record's fd ("" if none).
inline std::string decorationText(const StraceLog& log, uint32_t index) {
    const FdDecoration* decoration = log.decoration(index);
    return decoration != nullptr ? decoration->text : std::string();
}

/// The path of a file in the source tree.
inline std::string sourcePath(const std::string& relative) {
    return std::string(TCPSCOPE_SOURCE_DIR) + "/" + relative;
}

/// A file's bytes.
std::string readText(const std::string& path);

/// Lines of `text` that contain `needle` (what `grep -c` would say).
size_t countLinesWith(std::string_view text, std::string_view needle);

}  // namespace tcpscope::testing
