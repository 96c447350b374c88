// Small loopback program exercising the socket calls tcpscope's strace parser must read.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int listener4, listener6;

static void* server(void* arg) {
    (void)arg;
    struct sockaddr_in peer; socklen_t len = sizeof peer;
    int conn = accept(listener4, (struct sockaddr*)&peer, &len);
    char buf[256];
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = conn};
    epoll_ctl(ep, EPOLL_CTL_ADD, conn, &ev);
    struct epoll_event out[4];
    epoll_wait(ep, out, 4, 1000);
    ssize_t n = read(conn, buf, sizeof buf);
    struct iovec iov[2] = {{buf, 3}, {buf + 3, (size_t)(n > 3 ? n - 3 : 0)}};
    writev(conn, iov, 2);
    epoll_pwait(ep, out, 4, 1000, NULL);
    struct timespec ts = {1, 0};
    epoll_pwait2(ep, out, 4, &ts, NULL);
    n = recv(conn, buf, sizeof buf, 0);
    send(conn, "pong \"quoted\" {brace} [x]\n", 26, 0);
    struct msghdr msg = {0}; struct iovec one = {buf, sizeof buf}; msg.msg_iov = &one; msg.msg_iovlen = 1;
    recvmsg(conn, &msg, 0);
    shutdown(conn, SHUT_WR);
    read(conn, buf, sizeof buf);
    close(conn);
    close(ep);
    struct sockaddr_in6 peer6; len = sizeof peer6;
    int conn6 = accept4(listener6, (struct sockaddr*)&peer6, &len, SOCK_CLOEXEC);
    struct pollfd pfd = {conn6, POLLIN, 0};
    poll(&pfd, 1, 1000);
    n = recvfrom(conn6, buf, sizeof buf, 0, NULL, NULL);
    sendto(conn6, buf, (size_t)n, 0, NULL, 0);
    read(conn6, buf, sizeof buf);
    close(conn6);
    return NULL;
}

int main(void) {
    int one = 1;
    listener4 = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(listener4, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    setsockopt(listener4, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(47311)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    bind(listener4, (struct sockaddr*)&addr, sizeof addr);
    listen(listener4, 8);
    listener6 = socket(AF_INET6, SOCK_STREAM, 0);
    setsockopt(listener6, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in6 addr6 = {.sin6_family = AF_INET6, .sin6_port = htons(47312)};
    inet_pton(AF_INET6, "::1", &addr6.sin6_addr);
    bind(listener6, (struct sockaddr*)&addr6, sizeof addr6);
    listen(listener6, 8);

    pthread_t thread;
    pthread_create(&thread, NULL, server, NULL);

    int client = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, IPPROTO_TCP);
    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int value = 0; socklen_t vlen = sizeof value;
    getsockopt(client, IPPROTO_TCP, TCP_NODELAY, &value, &vlen);
    connect(client, (struct sockaddr*)&addr, sizeof addr);  // EINPROGRESS
    fd_set wset; FD_ZERO(&wset); FD_SET(client, &wset);
    struct timeval tv = {1, 0};
    select(client + 1, NULL, &wset, NULL, &tv);
    int flags = 0;
    (void)flags;
    struct linger lin = {1, 0};
    setsockopt(client, SOL_SOCKET, SO_LINGER, &lin, sizeof lin);
    setsockopt(client, IPPROTO_TCP, TCP_CORK, &one, sizeof one);
    setsockopt(client, IPPROTO_TCP, TCP_CORK, &value, sizeof value);
    write(client, "hello world, this is a longer request line\n", 43);
    char buf[256];
    struct pollfd pfd = {client, POLLIN, 0};
    ppoll(&pfd, 1, NULL, NULL);
    struct iovec iov[2] = {{buf, 4}, {buf + 4, 100}};
    readv(client, iov, 2);
    setsockopt(client, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
    struct msghdr msg = {0}; struct iovec m = {"second\n", 7}; msg.msg_iov = &m; msg.msg_iovlen = 1;
    sendmsg(client, &msg, MSG_NOSIGNAL);
    fd_set rset; FD_ZERO(&rset); FD_SET(client, &rset);
    pselect(client + 1, &rset, NULL, NULL, NULL, NULL);
    recv(client, buf, sizeof buf, 0);
    send(client, "third", 5, 0);
    read(client, buf, sizeof buf);
    close(client);

    int client6 = socket(AF_INET6, SOCK_STREAM, 0);
    connect(client6, (struct sockaddr*)&addr6, sizeof addr6);
    write(client6, "v6 data", 7);
    read(client6, buf, sizeof buf);
    shutdown(client6, SHUT_RDWR);
    close(client6);
    pthread_join(thread, NULL);

    // A refused port and an address that cannot be assigned.
    int refused = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in closed = {.sin_family = AF_INET, .sin_port = htons(1)};
    inet_pton(AF_INET, "127.0.0.1", &closed.sin_addr);
    connect(refused, (struct sockaddr*)&closed, sizeof closed);
    close(refused);
    int badbind = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in foreign = {.sin_family = AF_INET, .sin_port = htons(5000)};
    inet_pton(AF_INET, "192.0.2.1", &foreign.sin_addr);
    bind(badbind, (struct sockaddr*)&foreign, sizeof foreign);
    close(badbind);

    int unixfd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un ua = {.sun_family = AF_UNIX};
    strcpy(ua.sun_path, "/tmp/strace-rec/nosuch.sock");
    connect(unixfd, (struct sockaddr*)&ua, sizeof ua);
    int pair[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, pair);
    write(pair[0], "x", 1);
    read(pair[1], buf, 1);

    pid_t child = fork();
    if (child == 0) {
        write(pair[0], "child", 5);
        _exit(3);
    }
    waitpid(child, NULL, 0);
    pid_t victim = fork();
    if (victim == 0) {
        pause();
        _exit(0);
    }
    usleep(20000);
    kill(victim, SIGKILL);
    waitpid(victim, NULL, 0);
    return 0;
}
