#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "strace/strace_file_name.hpp"
#include "strace/strace_log.hpp"
#include "strace/strace_parse_options.hpp"

namespace tcpscope {

/// Parses strace output held in memory (the fuzz target and the tests use this).
StraceLog parseStraceText(std::string_view text, const StraceParseOptions& options = {});

/// Parses one strace log file (plain, gzip or zstd), reading it in chunks. A file named NAME.PID
/// (strace -ff) gives its PID to the lines that print none, unless options.defaultPid is set.
/// Throws CaptureError if the file cannot be opened; read errors later on end the parse and are
/// listed in StraceLog::problems.
StraceLog parseStraceFile(const std::string& path, const StraceParseOptions& options = {});

/// Parses the files of one log together: the NAME.PID files of "strace -ff -o NAME" become the
/// processes of one StraceLog. Use groupStraceFiles() first when the paths may hold several logs.
StraceLog parseStraceFiles(const std::vector<std::string>& paths, const StraceParseOptions& options = {});

}  // namespace tcpscope
