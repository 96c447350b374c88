#pragma once
#include <string>

namespace tcpscope::ui {

/// What a file given to the GUI (dropped, opened, on the command line) is, from its content.
enum class InputKind {
    Capture,    ///< pcap or pcapng magic, possibly inside gzip or zstd
    StraceLog,  ///< text whose first lines strace printed (any of its formats), possibly compressed
    Unknown,    ///< neither, or unreadable: `reason` says why
};

struct InputClassification {
    InputKind kind = InputKind::Unknown;
    std::string reason;  ///< for Unknown: "FILE: offset 0: reason", one line
};

/// Looks at the first kilobytes of `path` (decompressed). Never throws.
InputClassification classifyInput(const std::string& path);

}  // namespace tcpscope::ui
