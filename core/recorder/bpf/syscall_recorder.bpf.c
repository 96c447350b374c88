// SPDX-License-Identifier: GPL-2.0
/* The socket system calls of chosen processes, each tied in the kernel to its socket's 4-tuple,
 * through a ring buffer to tcpscope-cli record. Tracepoints only (syscalls:sys_enter_* and
 * sys_exit_*), CO-RE against the running kernel's BTF. */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "syscall_event.h"

char LICENSE[] SEC("license") = "GPL";

#define AF_INET 2
#define AF_INET6 10
#define S_IFMT 00170000
#define S_IFSOCK 0140000
#define SOL_SOCKET 1
#define SO_LINGER 13
#define MAX_IOV 8
#define RING_BYTES (8 << 20)
#define RING_WAKEUP_BYTES (RING_BYTES / 4)

/* Set by tcpscope before loading. */
const volatile __u32 filter_by_pid = 0;
const volatile __u32 filter_by_comm = 0;
const volatile __u32 recorder_tgid = 0;

/* Ring buffer reservations that failed: events lost. */
__u64 lost_events = 0;

struct comm_key {
    char comm[TCPSCOPE_COMM_BYTES];
};

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 1024);
    __type(key, __u32);
    __type(value, __u8);
} traced_tgids SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 64);
    __type(key, struct comm_key);
    __type(value, __u8);
} traced_comms SEC(".maps");

/* The call each thread is in, from its entry to its return. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 16384);
    __type(key, __u32);
    __type(value, struct tcpscope_syscall_event);
} calls_in_progress SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct tcpscope_syscall_event);
} scratch SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, RING_BYTES);
} events SEC(".maps");

static __always_inline int traced(void) {
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tgid = id >> 32;
    if (tgid == recorder_tgid) {
        return 0;
    }
    if (!filter_by_pid && !filter_by_comm) {
        return 1;
    }
    if (filter_by_pid && bpf_map_lookup_elem(&traced_tgids, &tgid)) {
        return 1;
    }
    if (filter_by_comm) {
        struct comm_key key = {};
        bpf_get_current_comm(key.comm, sizeof(key.comm));
        if (bpf_map_lookup_elem(&traced_comms, &key)) {
            return 1;
        }
    }
    return 0;
}

/* The socket behind `fd` of the current task, or NULL for a fd that is no socket. */
static __always_inline struct sock* socket_of_fd(int fd) {
    if (fd < 0) {
        return NULL;
    }
    struct task_struct* task = (struct task_struct*)bpf_get_current_task();
    struct fdtable* fdt = BPF_CORE_READ(task, files, fdt);
    if (!fdt || (unsigned int)fd >= BPF_CORE_READ(fdt, max_fds)) {
        return NULL;
    }
    struct file** fds = BPF_CORE_READ(fdt, fd);
    struct file* file = NULL;
    bpf_probe_read_kernel(&file, sizeof(file), &fds[fd]);
    if (!file) {
        return NULL;
    }
    umode_t mode = BPF_CORE_READ(file, f_inode, i_mode);
    if ((mode & S_IFMT) != S_IFSOCK) {
        return NULL;
    }
    struct socket* sock = BPF_CORE_READ(file, private_data);
    if (!sock) {
        return NULL;
    }
    return BPF_CORE_READ(sock, sk);
}

/* Fills the 4-tuple of the socket behind `fd`; false when it is no IPv4 or IPv6 socket. */
static __always_inline int read_tuple(int fd, struct tcpscope_syscall_event* event) {
    struct sock* sk = socket_of_fd(fd);
    if (!sk) {
        return 0;
    }
    __u16 family = BPF_CORE_READ(sk, __sk_common.skc_family);
    if (family != AF_INET && family != AF_INET6) {
        return 0;
    }
    event->family = family;
    event->protocol = BPF_CORE_READ(sk, sk_protocol);
    event->local_port = BPF_CORE_READ(sk, __sk_common.skc_num);
    event->remote_port = __builtin_bswap16(BPF_CORE_READ(sk, __sk_common.skc_dport));
    if (family == AF_INET) {
        __u32 local = BPF_CORE_READ(sk, __sk_common.skc_rcv_saddr);
        __u32 remote = BPF_CORE_READ(sk, __sk_common.skc_daddr);
        __builtin_memcpy(event->local_addr, &local, 4);
        __builtin_memcpy(event->remote_addr, &remote, 4);
    } else {
        BPF_CORE_READ_INTO(&event->local_addr, sk, __sk_common.skc_v6_rcv_saddr.in6_u.u6_addr8);
        BPF_CORE_READ_INTO(&event->remote_addr, sk, __sk_common.skc_v6_daddr.in6_u.u6_addr8);
    }
    event->flags |= TCPSCOPE_EVENT_HAS_SOCKET;
    return 1;
}

static __always_inline struct tcpscope_syscall_event* fresh_event(__u16 call, int fd) {
    __u32 zero = 0;
    struct tcpscope_syscall_event* event = bpf_map_lookup_elem(&scratch, &zero);
    if (!event) {
        return NULL;
    }
    __builtin_memset(event, 0, sizeof(*event));
    __u64 id = bpf_get_current_pid_tgid();
    event->enter_ns = bpf_ktime_get_ns();
    event->pid = id >> 32;
    event->tid = (__u32)id;
    event->call = call;
    event->fd = fd;
    event->size = -1;
    bpf_get_current_comm(event->comm, sizeof(event->comm));
    return event;
}

static __always_inline void remember(struct tcpscope_syscall_event* event) {
    __u32 tid = event->tid;
    bpf_map_update_elem(&calls_in_progress, &tid, event, BPF_ANY);
}

/* Sum of the iov_len of a user iovec array (the first MAX_IOV entries). */
static __always_inline __s64 iov_bytes(const struct iovec* iov, __u64 count) {
    __s64 total = 0;
    for (int i = 0; i < MAX_IOV; i++) {
        if (i >= count) {
            break;
        }
        struct iovec entry = {};
        if (bpf_probe_read_user(&entry, sizeof(entry), &iov[i]) != 0) {
            break;
        }
        total += entry.iov_len;
    }
    return total;
}

static __always_inline __s64 msghdr_bytes(const struct user_msghdr* message) {
    struct user_msghdr header = {};
    if (bpf_probe_read_user(&header, sizeof(header), message) != 0) {
        return -1;
    }
    return iov_bytes(header.msg_iov, header.msg_iovlen);
}

/* A call on a socket fd: kept only when the fd is an IPv4 or IPv6 socket. */
static __always_inline int enter_on_socket(__u16 call, int fd, __s64 size) {
    if (!traced()) {
        return 0;
    }
    struct tcpscope_syscall_event* event = fresh_event(call, fd);
    if (!event || !read_tuple(fd, event)) {
        return 0;
    }
    event->size = size;
    remember(event);
    return 0;
}

static __always_inline int enter_wait(__u16 call, int fd, __s64 size) {
    if (!traced()) {
        return 0;
    }
    struct tcpscope_syscall_event* event = fresh_event(call, fd);
    if (!event) {
        return 0;
    }
    event->size = size;
    remember(event);
    return 0;
}

static __always_inline int exit_call(long result) {
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    struct tcpscope_syscall_event* pending = bpf_map_lookup_elem(&calls_in_progress, &tid);
    if (!pending) {
        return 0;
    }
    struct tcpscope_syscall_event* event = bpf_ringbuf_reserve(&events, sizeof(*event), 0);
    if (!event) {
        __sync_fetch_and_add(&lost_events, 1);
        bpf_map_delete_elem(&calls_in_progress, &tid);
        return 0;
    }
    __builtin_memcpy(event, pending, sizeof(*event));
    bpf_map_delete_elem(&calls_in_progress, &tid);
    event->exit_ns = bpf_ktime_get_ns();
    event->result = result;
    /* connect gets its local port here; accept's new socket is the returned fd. */
    if (event->call == TCPSCOPE_CALL_CONNECT) {
        read_tuple(event->fd, event);
    } else if ((event->call == TCPSCOPE_CALL_ACCEPT || event->call == TCPSCOPE_CALL_ACCEPT4) && result >= 0) {
        read_tuple((int)result, event);
    }
    // No wakeup per event (a context switch each): tcpscope reads the ring every 50 ms, and is
    // woken early only when it is a quarter full.
    __u64 flags = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) > RING_WAKEUP_BYTES ? BPF_RB_FORCE_WAKEUP
                                                                                     : BPF_RB_NO_WAKEUP;
    bpf_ringbuf_submit(event, flags);
    return 0;
}

#define ARG(n) ((long)ctx->args[n])

#define ON_SOCKET(name, call, size_expr)                                        \
    SEC("tracepoint/syscalls/sys_enter_" #name)                                 \
    int enter_##name(struct trace_event_raw_sys_enter* ctx) {                   \
        return enter_on_socket(call, (int)ARG(0), size_expr);                   \
    }                                                                           \
    SEC("tracepoint/syscalls/sys_exit_" #name)                                  \
    int exit_##name(struct trace_event_raw_sys_exit* ctx) { return exit_call(ctx->ret); }

#define ON_WAIT(name, call, fd_expr, size_expr)                                 \
    SEC("tracepoint/syscalls/sys_enter_" #name)                                 \
    int enter_##name(struct trace_event_raw_sys_enter* ctx) {                   \
        return enter_wait(call, fd_expr, size_expr);                            \
    }                                                                           \
    SEC("tracepoint/syscalls/sys_exit_" #name)                                  \
    int exit_##name(struct trace_event_raw_sys_exit* ctx) { return exit_call(ctx->ret); }

ON_SOCKET(write, TCPSCOPE_CALL_WRITE, ARG(2))
ON_SOCKET(writev, TCPSCOPE_CALL_WRITEV, iov_bytes((const struct iovec*)ARG(1), ARG(2)))
ON_SOCKET(sendto, TCPSCOPE_CALL_SENDTO, ARG(2))
ON_SOCKET(sendmsg, TCPSCOPE_CALL_SENDMSG, msghdr_bytes((const struct user_msghdr*)ARG(1)))
ON_SOCKET(read, TCPSCOPE_CALL_READ, ARG(2))
ON_SOCKET(readv, TCPSCOPE_CALL_READV, iov_bytes((const struct iovec*)ARG(1), ARG(2)))
ON_SOCKET(recvfrom, TCPSCOPE_CALL_RECVFROM, ARG(2))
ON_SOCKET(recvmsg, TCPSCOPE_CALL_RECVMSG, msghdr_bytes((const struct user_msghdr*)ARG(1)))
ON_SOCKET(connect, TCPSCOPE_CALL_CONNECT, -1)
ON_SOCKET(accept, TCPSCOPE_CALL_ACCEPT, -1)
ON_SOCKET(accept4, TCPSCOPE_CALL_ACCEPT4, -1)
ON_SOCKET(close, TCPSCOPE_CALL_CLOSE, -1)

ON_WAIT(epoll_wait, TCPSCOPE_CALL_EPOLL_WAIT, (int)ARG(0), ARG(2))
ON_WAIT(epoll_pwait, TCPSCOPE_CALL_EPOLL_PWAIT, (int)ARG(0), ARG(2))
ON_WAIT(poll, TCPSCOPE_CALL_POLL, -1, ARG(1))
ON_WAIT(ppoll, TCPSCOPE_CALL_PPOLL, -1, ARG(1))
ON_WAIT(select, TCPSCOPE_CALL_SELECT, -1, ARG(0))
ON_WAIT(pselect6, TCPSCOPE_CALL_PSELECT6, -1, ARG(0))

SEC("tracepoint/syscalls/sys_enter_shutdown")
int enter_shutdown(struct trace_event_raw_sys_enter* ctx) {
    if (!traced()) {
        return 0;
    }
    struct tcpscope_syscall_event* event = fresh_event(TCPSCOPE_CALL_SHUTDOWN, (int)ARG(0));
    if (!event || !read_tuple(event->fd, event)) {
        return 0;
    }
    event->option_level = (int)ARG(1);
    remember(event);
    return 0;
}
SEC("tracepoint/syscalls/sys_exit_shutdown")
int exit_shutdown(struct trace_event_raw_sys_exit* ctx) { return exit_call(ctx->ret); }

SEC("tracepoint/syscalls/sys_enter_setsockopt")
int enter_setsockopt(struct trace_event_raw_sys_enter* ctx) {
    if (!traced()) {
        return 0;
    }
    struct tcpscope_syscall_event* event = fresh_event(TCPSCOPE_CALL_SETSOCKOPT, (int)ARG(0));
    if (!event || !read_tuple(event->fd, event)) {
        return 0;
    }
    event->option_level = (int)ARG(1);
    event->option_name = (int)ARG(2);
    const void* value = (const void*)ARG(3);
    int length = (int)ARG(4);
    if (event->option_level == SOL_SOCKET && event->option_name == SO_LINGER && length >= 8) {
        int linger[2] = {};
        if (bpf_probe_read_user(linger, sizeof(linger), value) == 0) {
            event->option_value = linger[0] ? linger[1] : -1;
            event->flags |= TCPSCOPE_EVENT_HAS_OPTION;
        }
    } else if (length >= 4) {
        int option = 0;
        if (bpf_probe_read_user(&option, sizeof(option), value) == 0) {
            event->option_value = option;
            event->flags |= TCPSCOPE_EVENT_HAS_OPTION;
        }
    }
    remember(event);
    return 0;
}
SEC("tracepoint/syscalls/sys_exit_setsockopt")
int exit_setsockopt(struct trace_event_raw_sys_exit* ctx) { return exit_call(ctx->ret); }
