#pragma once
// What the tests of the system call recorder check before they run.
#include <string>

namespace tcpscope::test {

/// Why the system call recorder cannot run here (not built, not root, no tracefs), or empty.
std::string whyNoSyscallRecorder();

}  // namespace tcpscope::test
