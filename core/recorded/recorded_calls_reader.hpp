#pragma once
#include <optional>
#include <string>

#include "recorded/recorded_call.hpp"

namespace tcpscope {

/// The system calls `tcpscope-cli record` wrote into a pcapng file (its custom blocks), or nullopt
/// for a file that holds none: another format, a pcapng file whose section header does not name
/// `tcpscope-cli record` as its application (not scanned), or one that cannot be opened (the
/// capture reader says why). Blocks are read by their lengths, packets skipped; a block
/// longer than 16 MiB or cut short ends the scan with what was read. `problem` gets the first bad
/// tcpscope block, if any.
std::optional<RecordedCalls> readRecordedCalls(const std::string& path, std::string* problem = nullptr);

}  // namespace tcpscope
