/* Copied unchanged (but for this paragraph) from the lab tools of the tcpscope workspace, shared/lab/delayline.c,
 * so that record.sh needs nothing outside the project. record.sh builds it with gcc into a temporary folder. */
/* delayline: a network hop with a fixed one-way delay, for kernels without netem.
 * Bridges two interfaces of one network namespace at layer 2 (AF_PACKET, promiscuous): every frame that
 * arrives on one leaves the other DELAY_MS later, in order.
 *   delayline IF_A IF_B DELAY_MS
 * Runs until killed. Frames the program itself sent (PACKET_OUTGOING) are not forwarded again. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SLOTS 65536
struct frame { double due; int len; unsigned char data[2048]; };
struct queue { struct frame *f; unsigned head, tail; };

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
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
    return fd;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: delayline IF_A IF_B DELAY_MS\n"); return 2; }
    int fd[2] = {open_if(argv[1]), open_if(argv[2])};
    double delay = atof(argv[3]) / 1000.0;
    struct queue q[2];  /* q[i]: frames that arrived on fd[i], to leave on fd[1-i] */
    for (int i = 0; i < 2; i++) { q[i].f = calloc(SLOTS, sizeof(struct frame)); q[i].head = q[i].tail = 0; }
    for (;;) {
        double t = now(), next = t + 1.0;
        for (int i = 0; i < 2; i++) {
            while (q[i].head != q[i].tail && q[i].f[q[i].head % SLOTS].due <= t) {
                struct frame *f = &q[i].f[q[i].head % SLOTS];
                if (send(fd[1 - i], f->data, f->len, 0) < 0) perror("send");
                q[i].head++;
            }
            if (q[i].head != q[i].tail && q[i].f[q[i].head % SLOTS].due < next) next = q[i].f[q[i].head % SLOTS].due;
        }
        struct pollfd p[2] = {{fd[0], POLLIN, 0}, {fd[1], POLLIN, 0}};
        int ms = (int)((next - now()) * 1000.0);
        if (ms < 0) ms = 0;
        if (poll(p, 2, ms) < 0) { perror("poll"); return 1; }
        for (int i = 0; i < 2; i++) {
            if (!(p[i].revents & POLLIN)) continue;
            struct sockaddr_ll from;
            socklen_t fl = sizeof from;
            struct frame *f = &q[i].f[q[i].tail % SLOTS];
            int n = recvfrom(fd[i], f->data, sizeof f->data, MSG_DONTWAIT, (void *)&from, &fl);
            if (n <= 0 || from.sll_pkttype == PACKET_OUTGOING) continue;
            if (q[i].tail - q[i].head >= SLOTS) continue; /* full: drop, as a real queue would */
            f->len = n;
            f->due = now() + delay;
            q[i].tail++;
        }
    }
}
