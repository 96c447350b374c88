#include "support/recorder_check.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include "recorder/syscall_recorder.hpp"

namespace tcpscope::test {

std::string whyNoSyscallRecorder() {
    if (const std::string missing = syscallRecorderMissing(); !missing.empty()) {
        return "the recorder was not built: " + missing;
    }
    if (::geteuid() != 0) {
        return "not root: recording needs root (BPF and packet capture)";
    }
    struct stat info {};
    if (::stat("/sys/kernel/tracing/events/syscalls", &info) != 0) {
        return "tracefs is not mounted at /sys/kernel/tracing (mount -t tracefs nodev /sys/kernel/tracing)";
    }
    return {};
}

}  // namespace tcpscope::test
