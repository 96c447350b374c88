#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tcpscope {

/// Whose system calls to record: processes by pid (their threads too) and/or by command name
/// (comm, at most 15 bytes); a call is recorded if either matches. Both empty: every process.
struct SyscallRecorderFilter {
    std::vector<uint32_t> pids;
    std::vector<std::string> commands;
};

/// Thrown when the recorder cannot start: no BPF support in this build, no tracefs, no BTF, no
/// privileges. what() is one line that says how to fix it.
class SyscallRecorderError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Why this build has no recorder ("built without libbpf-dev: ..."), or empty when it has one.
std::string syscallRecorderMissing();

/// The socket system calls of chosen processes, recorded with the BPF program on the syscalls
/// tracepoints (core/recorder/bpf): each call with its times (CLOCK_MONOTONIC), size, result and the
/// 4-tuple of its socket read in the kernel. Calls come out as raw events (bpf/syscall_event.h,
/// call_block.hpp's kCallRecordBytes each).
class SyscallRecorder {
public:
    /// Loads and attaches the program. Throws SyscallRecorderError.
    explicit SyscallRecorder(const SyscallRecorderFilter& filter);
    ~SyscallRecorder();
    SyscallRecorder(const SyscallRecorder&) = delete;
    SyscallRecorder& operator=(const SyscallRecorder&) = delete;

    /// Receives a batch of events (`count` events of kCallRecordBytes bytes).
    using BatchFn = std::function<void(std::span<const uint8_t> events, uint32_t count)>;
    /// Waits up to `timeoutMs` for events and hands what came to `onBatch` in batches. Returns the
    /// number of events.
    uint64_t poll(int timeoutMs, const BatchFn& onBatch);
    /// Events the kernel could not hand over (the ring buffer was full).
    [[nodiscard]] uint64_t lostEvents() const;
    /// Tracepoints that could not be attached (a system call this kernel does not have).
    [[nodiscard]] const std::vector<std::string>& unattached() const { return unattached_; }

    struct State;

private:
    std::unique_ptr<State> state_;
    std::vector<std::string> unattached_;
};

}  // namespace tcpscope
