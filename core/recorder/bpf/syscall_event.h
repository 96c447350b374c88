/* One recorded system call, as the BPF program (syscall_recorder.bpf.c) hands it to user space
 * through the ring buffer. C, shared by the BPF program and tcpscope; the layout is fixed. */
#ifndef TCPSCOPE_SYSCALL_EVENT_H
#define TCPSCOPE_SYSCALL_EVENT_H

#ifndef __VMLINUX_H__
#include <stdint.h>
typedef uint8_t tcpscope_u8;
typedef uint16_t tcpscope_u16;
typedef uint32_t tcpscope_u32;
typedef int32_t tcpscope_s32;
typedef uint64_t tcpscope_u64;
typedef int64_t tcpscope_s64;
#else
typedef __u8 tcpscope_u8;
typedef __u16 tcpscope_u16;
typedef __u32 tcpscope_u32;
typedef __s32 tcpscope_s32;
typedef __u64 tcpscope_u64;
typedef __s64 tcpscope_s64;
#endif

/* Which call (the values are part of the file format: docs/pcapng-blocks.md). */
enum tcpscope_call {
    TCPSCOPE_CALL_WRITE = 1,
    TCPSCOPE_CALL_WRITEV = 2,
    TCPSCOPE_CALL_SENDTO = 3,
    TCPSCOPE_CALL_SENDMSG = 4,
    TCPSCOPE_CALL_READ = 5,
    TCPSCOPE_CALL_READV = 6,
    TCPSCOPE_CALL_RECVFROM = 7,
    TCPSCOPE_CALL_RECVMSG = 8,
    TCPSCOPE_CALL_CONNECT = 9,
    TCPSCOPE_CALL_ACCEPT = 10,
    TCPSCOPE_CALL_ACCEPT4 = 11,
    TCPSCOPE_CALL_SETSOCKOPT = 12,
    TCPSCOPE_CALL_CLOSE = 13,
    TCPSCOPE_CALL_SHUTDOWN = 14,
    TCPSCOPE_CALL_EPOLL_WAIT = 15,
    TCPSCOPE_CALL_EPOLL_PWAIT = 16,
    TCPSCOPE_CALL_POLL = 17,
    TCPSCOPE_CALL_PPOLL = 18,
    TCPSCOPE_CALL_SELECT = 19,
    TCPSCOPE_CALL_PSELECT6 = 20,
    TCPSCOPE_CALL_LAST = 20,
};

/* Bits of tcpscope_syscall_event.flags. */
enum tcpscope_event_flag {
    TCPSCOPE_EVENT_HAS_SOCKET = 1, /* family, protocol, local and remote were read from the socket */
    TCPSCOPE_EVENT_HAS_OPTION = 2, /* setsockopt: the value was read */
};

#define TCPSCOPE_COMM_BYTES 16

struct tcpscope_syscall_event {
    tcpscope_u64 enter_ns;     /* bpf_ktime_get_ns() (CLOCK_MONOTONIC) at the call's entry */
    tcpscope_u64 exit_ns;      /* ... and at its return */
    tcpscope_s64 result;       /* the return value, or -errno */
    tcpscope_s64 size;         /* bytes asked for (count, iov_len sum), waits: maxevents / nfds; -1 unknown */
    tcpscope_u32 pid;          /* tgid */
    tcpscope_u32 tid;
    tcpscope_s32 fd;           /* the fd argument (accept: the listening socket; epoll: the epoll fd) */
    tcpscope_u16 call;         /* enum tcpscope_call */
    tcpscope_u16 flags;        /* enum tcpscope_event_flag */
    tcpscope_u16 family;       /* AF_INET or AF_INET6 */
    tcpscope_u16 protocol;     /* IPPROTO_TCP, ... */
    tcpscope_u16 local_port;   /* host order */
    tcpscope_u16 remote_port;  /* host order */
    tcpscope_u8 local_addr[16];  /* IPv4: the first 4 bytes */
    tcpscope_u8 remote_addr[16];
    tcpscope_s32 option_level; /* setsockopt level; shutdown: how */
    tcpscope_s32 option_name;
    tcpscope_s32 option_value; /* setsockopt int value; SO_LINGER: l_linger, -1 when off */
    tcpscope_u32 reserved;
    char comm[TCPSCOPE_COMM_BYTES];
};

#endif
