#include "recorder/syscall_recorder.hpp"

#include "recorded/call_block.hpp"

#ifdef TCPSCOPE_BPF_RECORDER
#include <bpf/libbpf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "recorder/bpf/syscall_event.h"
#include "syscall_recorder.skel.h"
#endif

namespace tcpscope {

#ifndef TCPSCOPE_BPF_RECORDER

struct SyscallRecorder::State {};

std::string syscallRecorderMissing() { return TCPSCOPE_RECORDER_MISSING; }

SyscallRecorder::SyscallRecorder(const SyscallRecorderFilter& /*filter*/) {
    throw SyscallRecorderError("this tcpscope-cli was built without the system call recorder: " +
                               syscallRecorderMissing());
}
SyscallRecorder::~SyscallRecorder() = default;
uint64_t SyscallRecorder::poll(int /*timeoutMs*/, const BatchFn& /*onBatch*/) { return 0; }
uint64_t SyscallRecorder::lostEvents() const { return 0; }

#else

static_assert(sizeof(tcpscope_syscall_event) == kCallRecordBytes, "the event layout is the file format");

namespace {

constexpr size_t kBatchEvents = 512;

int silentLibbpf(enum libbpf_print_level level, const char* format, va_list args) {
    if (level == LIBBPF_WARN && std::getenv("TCPSCOPE_LIBBPF_DEBUG") != nullptr) {
        return std::vfprintf(stderr, format, args);
    }
    return 0;
}

}  // namespace

struct SyscallRecorder::State {
    syscall_recorder* skeleton = nullptr;
    ring_buffer* ring = nullptr;
    std::vector<bpf_link*> links;
    std::vector<uint8_t> batch;
    uint32_t batchCount = 0;
    const BatchFn* onBatch = nullptr;
    uint64_t polled = 0;

    void flushBatch() {
        if (batchCount > 0 && onBatch != nullptr) {
            (*onBatch)(batch, batchCount);
        }
        batch.clear();
        batchCount = 0;
    }
    static int onEvent(void* context, void* data, size_t size) {
        auto* state = static_cast<State*>(context);
        if (size < kCallRecordBytes) {
            return 0;
        }
        const auto* bytes = static_cast<const uint8_t*>(data);
        state->batch.insert(state->batch.end(), bytes, bytes + kCallRecordBytes);
        ++state->polled;
        if (++state->batchCount == kBatchEvents) {
            state->flushBatch();
        }
        return 0;
    }
    ~State() {
        for (bpf_link* link : links) {
            bpf_link__destroy(link);
        }
        ring_buffer__free(ring);
        syscall_recorder__destroy(skeleton);
    }
};

std::string syscallRecorderMissing() { return {}; }

SyscallRecorder::SyscallRecorder(const SyscallRecorderFilter& filter) : state_(std::make_unique<State>()) {
    struct stat info {};
    if (::stat("/sys/kernel/tracing/events/syscalls", &info) != 0) {
        if (errno == EACCES) {
            throw SyscallRecorderError("tracefs (/sys/kernel/tracing) is root's: without root, recording needs "
                                       "CAP_DAC_READ_SEARCH besides CAP_BPF and CAP_PERFMON");
        }
        throw SyscallRecorderError(
            "tracefs is not mounted at /sys/kernel/tracing: mount it with `mount -t tracefs nodev /sys/kernel/tracing`");
    }
    if (::stat("/sys/kernel/btf/vmlinux", &info) != 0) {
        throw SyscallRecorderError("this kernel has no BTF (/sys/kernel/btf/vmlinux): the recorder needs a kernel "
                                   "built with CONFIG_DEBUG_INFO_BTF=y");
    }
    libbpf_set_print(silentLibbpf);
    state_->skeleton = syscall_recorder__open();
    if (state_->skeleton == nullptr) {
        throw SyscallRecorderError(fmt::format("cannot open the BPF program: {}", std::strerror(errno)));
    }
    syscall_recorder* skeleton = state_->skeleton;
    skeleton->rodata->filter_by_pid = filter.pids.empty() ? 0 : 1;
    skeleton->rodata->filter_by_comm = filter.commands.empty() ? 0 : 1;
    skeleton->rodata->recorder_tgid = static_cast<uint32_t>(::getpid());
    if (const int error = syscall_recorder__load(skeleton); error != 0) {
        throw SyscallRecorderError(fmt::format(
            "cannot load the BPF program ({}): recording needs root, or CAP_BPF and CAP_PERFMON",
            std::strerror(-error)));
    }
    const uint8_t yes = 1;
    for (const uint32_t pid : filter.pids) {
        bpf_map__update_elem(skeleton->maps.traced_tgids, &pid, sizeof(pid), &yes, sizeof(yes), BPF_ANY);
    }
    for (const std::string& command : filter.commands) {
        char key[TCPSCOPE_COMM_BYTES] = {};
        std::memcpy(key, command.data(), std::min(command.size(), sizeof(key) - 1));
        bpf_map__update_elem(skeleton->maps.traced_comms, key, sizeof(key), &yes, sizeof(yes), BPF_ANY);
    }
    bpf_program* program = nullptr;
    bpf_object__for_each_program(program, skeleton->obj) {
        bpf_link* link = bpf_program__attach(program);
        if (link == nullptr) {
            unattached_.emplace_back(bpf_program__section_name(program));
            continue;
        }
        state_->links.push_back(link);
    }
    if (state_->links.empty()) {
        throw SyscallRecorderError("cannot attach to any syscalls tracepoint (is tracefs mounted at /sys/kernel/tracing?)");
    }
    state_->ring = ring_buffer__new(bpf_map__fd(skeleton->maps.events), &State::onEvent, state_.get(), nullptr);
    if (state_->ring == nullptr) {
        throw SyscallRecorderError(fmt::format("cannot open the BPF ring buffer: {}", std::strerror(errno)));
    }
    state_->batch.reserve(kBatchEvents * kCallRecordBytes);
}

SyscallRecorder::~SyscallRecorder() = default;

uint64_t SyscallRecorder::poll(int timeoutMs, const BatchFn& onBatch) {
    state_->onBatch = &onBatch;
    state_->polled = 0;
    // The program wakes a waiting thread only when the ring is a quarter full: the timeout is the usual way back,
    // and what came meanwhile is taken then.
    ring_buffer__poll(state_->ring, timeoutMs);
    ring_buffer__consume(state_->ring);
    state_->flushBatch();
    state_->onBatch = nullptr;
    return state_->polled;
}

uint64_t SyscallRecorder::lostEvents() const {
    return __atomic_load_n(&state_->skeleton->bss->lost_events, __ATOMIC_RELAXED);
}

#endif

}  // namespace tcpscope
