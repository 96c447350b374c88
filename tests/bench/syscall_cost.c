/* syscall_cost N: N rounds of a 100-byte write on one end of a loopback TCP connection and its
 * read on the other, in one process; prints the nanoseconds per call (wall clock). What a system
 * call costs with nothing attached, with tcpscope-cli record and with strace: see
 * record_proxy_lab.sh's "calls" mode. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

int main(int argc, char** argv) {
    const long rounds = argc > 1 ? atol(argv[1]) : 200000;
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    if (bind(listener, (struct sockaddr*)&address, sizeof(address)) != 0 || listen(listener, 1) != 0 ||
        getsockname(listener, (struct sockaddr*)&address, &length) != 0) {
        perror("listen");
        return 1;
    }
    const int client = socket(AF_INET, SOCK_STREAM, 0);
    const int on = 1;
    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
    if (connect(client, (struct sockaddr*)&address, sizeof(address)) != 0) {
        perror("connect");
        return 1;
    }
    const int server = accept(listener, NULL, NULL);
    char buffer[100] = {0};
    const double start = now();
    for (long i = 0; i < rounds; ++i) {
        if (write(client, buffer, sizeof(buffer)) != (ssize_t)sizeof(buffer)) {
            perror("write");
            return 1;
        }
        size_t got = 0;
        while (got < sizeof(buffer)) {
            const ssize_t n = read(server, buffer, sizeof(buffer) - got);
            if (n <= 0) {
                perror("read");
                return 1;
            }
            got += (size_t)n;
        }
    }
    printf("%.0f\n", (now() - start) * 1e9 / (double)(rounds * 2));
    return 0;
}
