/* delayline: a network hop with a fixed one-way delay, for kernels without netem.
 * Bridges two interfaces of one network namespace at layer 2 (AF_PACKET, promiscuous): every frame that
 * arrives on one leaves the other DELAY_MS later, in order.
 *   delayline IF_A IF_B DELAY_MS
 * Runs until killed; on SIGTERM or SIGINT it prints how many frames it forwarded and lost, then exits.
 * Frames the program itself sent (PACKET_OUTGOING) are not forwarded again.
 *
 * Derived from the lab tools of the tcpscope workspace (shared/lab/delayline.c) so that record.sh needs
 * nothing outside the project; record.sh builds it with gcc into a temporary folder. Unlike the lab copy it
 * sleeps until the next frame is due instead of spinning through the last millisecond, drains every frame a
 * wake-up finds, and has a large receive buffer: the seed scenarios push tens of thousands of frames a
 * second through it on a machine whose cores other work shares, and a wire that spins a core or drops
 * frames would show in the captures as delays and losses that no real link made. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SLOTS 65536
#define RECEIVE_BUFFER_BYTES (32 << 20)
struct frame { long long due_ns; int len; unsigned char data[2048]; };
struct queue { struct frame *f; unsigned head, tail; unsigned long long forwarded, queue_full; };

static volatile sig_atomic_t stopping;
static void stop(int signal_number) { (void)signal_number; stopping = 1; }

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int open_if(const char *name) {
    int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
    if (fd < 0) { perror("socket"); exit(1); }
    struct sockaddr_ll a = {0};
    a.sll_family = AF_PACKET;
    a.sll_protocol = htons(ETH_P_ALL);
    a.sll_ifindex = if_nametoindex(name);
    if (!a.sll_ifindex || bind(fd, (void *)&a, sizeof a)) { perror(name); exit(1); }
    struct packet_mreq m = {0};
    m.mr_ifindex = a.sll_ifindex;
    m.mr_type = PACKET_MR_PROMISC;
    setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &m, sizeof m);
    /* a burst that arrives while this process waits for a core must wait in the socket, not be dropped */
    int bytes = RECEIVE_BUFFER_BYTES;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof bytes))
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
    return fd;
}

/* frames the kernel dropped on this socket since the last call (its receive buffer was full) */
static unsigned long long socket_drops(int fd) {
    struct tpacket_stats stats;
    socklen_t length = sizeof stats;
    if (getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &stats, &length)) return 0;
    return stats.tp_drops;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: delayline IF_A IF_B DELAY_MS\n"); return 2; }
    int fd[2] = {open_if(argv[1]), open_if(argv[2])};
    long long delay_ns = (long long)(atof(argv[3]) * 1e6);
    struct queue q[2];  /* q[i]: frames that arrived on fd[i], to leave on fd[1-i] */
    for (int i = 0; i < 2; i++) {
        memset(&q[i], 0, sizeof q[i]);
        q[i].f = calloc(SLOTS, sizeof(struct frame));
        if (!q[i].f) { perror("calloc"); return 1; }
    }
    socket_drops(fd[0]);
    socket_drops(fd[1]);
    prctl(PR_SET_TIMERSLACK, 1UL); /* wake when a frame is due, not up to 50 us later */
    struct sigaction action = {0};
    action.sa_handler = stop;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    unsigned long long dropped[2] = {0, 0};
    while (!stopping) {
        long long t = now_ns(), next = t + 1000000000LL;
        for (int i = 0; i < 2; i++) {
            while (q[i].head != q[i].tail && q[i].f[q[i].head % SLOTS].due_ns <= t) {
                struct frame *f = &q[i].f[q[i].head % SLOTS];
                if (send(fd[1 - i], f->data, f->len, 0) < 0) perror("send");
                else q[i].forwarded++;
                q[i].head++;
            }
            if (q[i].head != q[i].tail && q[i].f[q[i].head % SLOTS].due_ns < next) next = q[i].f[q[i].head % SLOTS].due_ns;
        }
        struct pollfd p[2] = {{fd[0], POLLIN, 0}, {fd[1], POLLIN, 0}};
        long long wait_ns = next - now_ns();
        if (wait_ns < 0) wait_ns = 0;
        struct timespec timeout = {wait_ns / 1000000000LL, wait_ns % 1000000000LL};
        if (ppoll(p, 2, &timeout, NULL) < 0) {
            if (errno == EINTR) continue;
            perror("ppoll");
            return 1;
        }
        for (int i = 0; i < 2; i++) {
            if (!(p[i].revents & POLLIN)) continue;
            for (;;) {
                struct sockaddr_ll from;
                socklen_t fl = sizeof from;
                struct frame *f = &q[i].f[q[i].tail % SLOTS];
                int n = recvfrom(fd[i], f->data, sizeof f->data, MSG_DONTWAIT, (void *)&from, &fl);
                if (n <= 0) break;
                if (from.sll_pkttype == PACKET_OUTGOING) continue;
                if (q[i].tail - q[i].head >= SLOTS) { q[i].queue_full++; continue; } /* full: drop, as a real queue would */
                f->len = n;
                f->due_ns = now_ns() + delay_ns;
                q[i].tail++;
            }
        }
    }
    for (int i = 0; i < 2; i++) dropped[i] = socket_drops(fd[i]);
    fprintf(stderr, "delayline %s -> %s: %llu frames forwarded, %llu lost (%llu receive buffer, %llu queue)\n",
            argv[1], argv[2], q[0].forwarded, dropped[0] + q[0].queue_full, dropped[0], q[0].queue_full);
    fprintf(stderr, "delayline %s -> %s: %llu frames forwarded, %llu lost (%llu receive buffer, %llu queue)\n",
            argv[2], argv[1], q[1].forwarded, dropped[1] + q[1].queue_full, dropped[1], q[1].queue_full);
    return 0;
}
