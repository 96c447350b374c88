// The calls that matter, each from a hand-written line in strace 6.1's format (and older formats
// where strace changed): their fds, decorations, addresses, options, byte counts and ready fds.
#include <sys/socket.h>

#include <catch2/catch.hpp>

#include "core/strace/strace_test_helpers.hpp"
#include "strace/errno_names.hpp"

using namespace tcpscope;
using tcpscope::testing::decorationText;
using tcpscope::testing::onlyRecord;

namespace {

SyscallRecord parseOne(std::string_view line) {
    return onlyRecord(parseStraceText(line));
}

std::vector<ReadyFd> readyOf(std::string_view line) {
    const StraceLog log = parseStraceText(line);
    const SyscallRecord record = onlyRecord(log);
    const auto ready = log.readyFdsOf(record);
    return {ready.begin(), ready.end()};
}

}  // namespace

TEST_CASE("socket: domain, type, flags and the decorated new fd", "[strace][decode]") {
    const StraceLog log = parseStraceText(
        "21810 03:24:38.529244 socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, IPPROTO_TCP) = 6<TCP:[60074]> "
        "<0.000012>");
    const SyscallRecord socket = onlyRecord(log);
    CHECK(socket.kind == SyscallKind::Socket);
    CHECK(socket.pid == 21810);
    CHECK(socket.family == AF_INET);
    CHECK(socket.socketType == SOCK_STREAM);
    CHECK(socket.protocol == 6);
    CHECK(socket.has(kNonBlocking));
    CHECK(socket.otherFd == 6);
    REQUIRE(log.decoration(socket.otherFdDecoration) != nullptr);
    CHECK(log.decoration(socket.otherFdDecoration)->kind == FdDecorationKind::Tcp);
    CHECK(log.decoration(socket.otherFdDecoration)->inode == 60074);
    CHECK(socket.durationNs == 12000);

    const SyscallRecord v6 = parseOne("socket(AF_INET6, SOCK_STREAM, IPPROTO_IP) = 4");
    CHECK(v6.family == AF_INET6);
    CHECK(v6.otherFd == 4);
    CHECK(v6.otherFdDecoration == SyscallRecord::kNoDecoration);
}

TEST_CASE("connect: IPv4 and IPv6 targets, EINPROGRESS and EADDRNOTAVAIL", "[strace][decode]") {
    const SyscallRecord v4 = parseOne(
        R"(connect(5<TCP:[69610]>, {sa_family=AF_INET, sin_port=htons(47311), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 EINPROGRESS (Operation now in progress) <0.000250>)");
    CHECK(v4.kind == SyscallKind::Connect);
    CHECK(v4.fd == 5);
    CHECK(v4.hasAddress());
    CHECK(v4.address.toString() == "127.0.0.1:47311");
    CHECK(v4.returnKind == ReturnKind::Error);
    CHECK(v4.returnValue == -1);
    CHECK(errnoName(v4.errnoCode) == "EINPROGRESS");

    const SyscallRecord busy = parseOne(
        R"(connect(3<TCP:[60557]>, {sa_family=AF_INET, sin_port=htons(9000), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 EADDRNOTAVAIL (Cannot assign requested address))");
    CHECK(busy.errnoCode == errnoFromName("EADDRNOTAVAIL"));
    CHECK(busy.errnoCode == 99);

    // strace 6.1 prints sin6_flowinfo before inet_pton; older versions after it.
    for (
        const char* line :
        {R"(connect(5, {sa_family=AF_INET6, sin6_port=htons(47312), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0)",
         R"(connect(5, {sa_family=AF_INET6, sin6_port=htons(47312), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_flowinfo=0, sin6_scope_id=0}, 28) = 0)"}) {
        CAPTURE(line);
        const SyscallRecord v6 = parseOne(line);
        CHECK(v6.family == AF_INET6);
        CHECK(v6.address.toString() == "[::1]:47312");
        CHECK(v6.succeeded());
    }

    const SyscallRecord unix = parseOne(
        R"(connect(5, {sa_family=AF_UNIX, sun_path="/tmp/x.sock"}, 110) = -1 ENOENT (No such file or directory))");
    CHECK(unix.family == AF_UNIX);
    CHECK_FALSE(unix.hasAddress());
}

TEST_CASE("accept and accept4: listener, peer, new fd", "[strace][decode]") {
    const StraceLog log = parseStraceText(
        R"(accept4(3<TCP:[127.0.0.1:3307]>, {sa_family=AF_INET, sin_port=htons(59628), sin_addr=inet_addr("127.0.0.1")}, [16], SOCK_CLOEXEC|SOCK_NONBLOCK) = 5<TCP:[127.0.0.1:3307->127.0.0.1:59628]> <0.000028>)");
    const SyscallRecord accept = onlyRecord(log);
    CHECK(accept.kind == SyscallKind::Accept);
    CHECK(accept.fd == 3);
    CHECK(accept.otherFd == 5);
    CHECK(accept.address.toString() == "127.0.0.1:59628");
    CHECK(accept.has(kNonBlocking));
    const FdDecoration* listener = log.decoration(accept.fdDecoration);
    REQUIRE(listener != nullptr);
    CHECK(listener->hasLocal);
    CHECK_FALSE(listener->hasRemote);
    const FdDecoration* connection = log.decoration(accept.otherFdDecoration);
    REQUIRE(connection != nullptr);
    CHECK(connection->local.toString() == "127.0.0.1:3307");
    CHECK(connection->remote.toString() == "127.0.0.1:59628");

    const SyscallRecord noPeer = parseOne("accept(3, NULL, NULL) = 7");
    CHECK(noPeer.otherFd == 7);
    CHECK_FALSE(noPeer.hasAddress());

    const SyscallRecord again =
        parseOne("accept4(3, 0x7ffd5c1e9a40, [128], SOCK_CLOEXEC) = -1 EAGAIN (Resource temporarily unavailable)");
    CHECK(again.returnKind == ReturnKind::Error);
    CHECK(again.otherFd == -1);
    CHECK(errnoName(again.errnoCode) == "EAGAIN");
}

TEST_CASE("bind, listen, close, shutdown", "[strace][decode]") {
    const SyscallRecord bind = parseOne(
        R"(bind(3<TCP:[59664]>, {sa_family=AF_INET, sin_port=htons(3307), sin_addr=inet_addr("127.0.0.1")}, 16) = 0)");
    CHECK(bind.kind == SyscallKind::Bind);
    CHECK(bind.address.toString() == "127.0.0.1:3307");

    const SyscallRecord listen = parseOne("listen(3<TCP:[127.0.0.1:3307]>, 16) = 0");
    CHECK(listen.kind == SyscallKind::Listen);
    CHECK(listen.backlog == 16);

    const SyscallRecord close = parseOne("close(5<TCP:[127.0.0.1:39276->127.0.0.1:47311]>) = 0 <0.000044>");
    CHECK(close.kind == SyscallKind::Close);
    CHECK(close.fd == 5);

    const SyscallRecord shutdown = parseOne(
        "shutdown(6<TCP:[127.0.0.1:47311->127.0.0.1:39276]>, SHUT_WR) = -1 ENOTCONN (Transport endpoint is not "
        "connected)");
    CHECK(shutdown.kind == SyscallKind::Shutdown);
    CHECK(shutdown.shutdownHow == 1);
    CHECK(errnoName(shutdown.errnoCode) == "ENOTCONN");
}

TEST_CASE("setsockopt and getsockopt: the options the analysis needs and their values", "[strace][decode]") {
    struct Case {
        const char* line;
        SocketOptionLevel level;
        SocketOption option;
        int64_t value;
    };
    const Case cases[] = {
        {"setsockopt(5, SOL_TCP, TCP_NODELAY, [1], 4) = 0", SocketOptionLevel::Tcp, SocketOption::TcpNodelay, 1},
        {"setsockopt(5, IPPROTO_TCP, TCP_NODELAY, [0], 4) = 0", SocketOptionLevel::Tcp, SocketOption::TcpNodelay, 0},
        {"setsockopt(5, SOL_TCP, TCP_CORK, [1], 4) = 0", SocketOptionLevel::Tcp, SocketOption::TcpCork, 1},
        {"setsockopt(5, SOL_TCP, TCP_QUICKACK, [1], 4) = 0", SocketOptionLevel::Tcp, SocketOption::TcpQuickack, 1},
        {"setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0", SocketOptionLevel::Socket, SocketOption::SoReuseaddr,
         1},
        {"setsockopt(3, SOL_SOCKET, SO_REUSEPORT, [1], 4) = 0", SocketOptionLevel::Socket, SocketOption::SoReuseport,
         1},
        {"setsockopt(5, SOL_SOCKET, SO_LINGER, {l_onoff=1, l_linger=0}, 8) = 0", SocketOptionLevel::Socket,
         SocketOption::SoLinger, 0},
        {"setsockopt(5, SOL_SOCKET, SO_LINGER, {l_onoff=0, l_linger=5}, 8) = 0", SocketOptionLevel::Socket,
         SocketOption::SoLinger, -1},
        {"getsockopt(5, SOL_TCP, TCP_NODELAY, [1], [4]) = 0", SocketOptionLevel::Tcp, SocketOption::TcpNodelay, 1},
        {"getsockopt(5, SOL_SOCKET, SO_ERROR, [ECONNREFUSED], [4]) = 0", SocketOptionLevel::Socket,
         SocketOption::SoError, 111},
        {"getsockopt(5, SOL_SOCKET, SO_ERROR, [0], [4]) = 0", SocketOptionLevel::Socket, SocketOption::SoError, 0},
    };
    for (const Case& expected : cases) {
        CAPTURE(expected.line);
        const SyscallRecord record = parseOne(expected.line);
        CHECK(record.optionLevel == expected.level);
        CHECK(record.option == expected.option);
        CHECK(record.has(kHasOptionValue));
        CHECK(record.optionValue == expected.value);
    }
    const SyscallRecord failed =
        parseOne("getsockopt(5, SOL_TCP, TCP_INFO, 0x7ffc, [4]) = -1 EBADF (Bad file descriptor)");
    CHECK(failed.option == SocketOption::Other);
    CHECK_FALSE(failed.has(kHasOptionValue));
}

TEST_CASE("write-like calls: fd, returned bytes and requested length", "[strace][decode]") {
    const SyscallRecord sendto = parseOne(
        R"(sendto(6<TCP:[127.0.0.1:46900->127.0.0.1:3306]>, "\0\0\0#\0\0\0\0COM_QUERY\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"..., 128, 0, NULL, 0) = 128 <0.000018>)");
    CHECK(sendto.kind == SyscallKind::Write);
    CHECK(sendto.fd == 6);
    CHECK(sendto.bytes == 128);
    CHECK(sendto.requestedBytes == 128);

    const SyscallRecord shortWrite = parseOne(R"(write(5, "hello world, this is a longer re"..., 43) = 20)");
    CHECK(shortWrite.bytes == 20);
    CHECK(shortWrite.requestedBytes == 43);

    const SyscallRecord writev = parseOne(
        R"(writev(6, [{iov_base="hel", iov_len=3}, {iov_base="lo world, this is a longer reque"..., iov_len=40}], 2) = 43)");
    CHECK(writev.requestedBytes == 43);
    CHECK(writev.bytes == 43);
    CHECK_FALSE(writev.has(kBytesPartial));

    const SyscallRecord cutList =
        parseOne(R"(writev(6, [{iov_base="a", iov_len=1}, {iov_base="b", iov_len=2}, ...], 40) = 100)");
    CHECK(cutList.has(kBytesPartial));
    CHECK(cutList.requestedBytes == 3);

    const SyscallRecord sendmsg = parseOne(
        R"(sendmsg(5, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="second\n", iov_len=7}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, MSG_NOSIGNAL) = 7)");
    CHECK(sendmsg.kind == SyscallKind::Write);
    CHECK(sendmsg.requestedBytes == 7);
    CHECK(sendmsg.bytes == 7);

    const SyscallRecord blocked =
        parseOne(R"(sendto(6, "x", 1, MSG_DONTWAIT, NULL, 0) = -1 EAGAIN (Resource temporarily unavailable))");
    CHECK(blocked.bytes == SyscallRecord::kUnknown);
    CHECK(blocked.requestedBytes == 1);

    const SyscallRecord mmsg = parseOne(
        R"(sendmmsg(3, [{msg_hdr={msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="ab", iov_len=2}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, msg_len=2}, {msg_hdr={msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="cde", iov_len=3}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, msg_len=3}], 2, 0) = 2)");
    CHECK(mmsg.returnValue == 2);
    CHECK(mmsg.bytes == 5);

    const SyscallRecord sendfile = parseOne("sendfile(5, 7</srv/index.html>, [0] => [4096], 4096) = 4096");
    CHECK(sendfile.fd == 5);
    CHECK(sendfile.requestedBytes == 4096);
    CHECK(sendfile.bytes == 4096);
}

TEST_CASE("read-like calls: fd, returned bytes, EOF and errors", "[strace][decode]") {
    const SyscallRecord recvfrom = parseOne(
        R"(recvfrom(5<TCP:[127.0.0.1:3307->127.0.0.1:59628]>, "\0\0\0#\0\0\0\0COM_QUERY\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"..., 65536, 0, NULL, NULL) = 163 <0.000009>)");
    CHECK(recvfrom.kind == SyscallKind::Read);
    CHECK(recvfrom.bytes == 163);
    CHECK(recvfrom.requestedBytes == 65536);

    const SyscallRecord eof = parseOne(R"(read(6, "", 256) = 0)");
    CHECK(eof.bytes == 0);

    const SyscallRecord readv = parseOne(
        R"(readv(5, [{iov_base="hell", iov_len=4}, {iov_base="o world, this is a longer reques"..., iov_len=100}], 2) = 43)");
    CHECK(readv.requestedBytes == 104);
    CHECK(readv.bytes == 43);

    const SyscallRecord recvmsg = parseOne("recvmsg(6, {msg_namelen=0}, 0) = -1 ECONNRESET (Connection reset by peer)");
    CHECK(recvmsg.kind == SyscallKind::Read);
    CHECK(errnoName(recvmsg.errnoCode) == "ECONNRESET");

    const SyscallRecord wouldBlock =
        parseOne("read(5, 0x7ffe49564c20, 256) = -1 EAGAIN (Resource temporarily unavailable)");
    CHECK(wouldBlock.bytes == SyscallRecord::kUnknown);
    CHECK(wouldBlock.requestedBytes == 256);
}

TEST_CASE("poll and ppoll: the ready fds of the result annotation", "[strace][decode][ready]") {
    const auto poll = readyOf(
        "poll([{fd=6<TCPv6:[[::1]:47312->[::1]:51380]>, events=POLLIN}], 1, 1000) = 1 ([{fd=6, revents=POLLIN}])");
    REQUIRE(poll.size() == 1);
    CHECK(poll[0].fd == 6);
    CHECK(poll[0].events == kReadable);

    const auto ppoll = readyOf(
        "ppoll([{fd=5, events=POLLIN}, {fd=7, events=POLLOUT}], 2, {tv_sec=1, tv_nsec=0}, NULL, 8) = 2 ([{fd=5, "
        "revents=POLLIN|POLLHUP}, {fd=7, revents=POLLOUT}], left {tv_sec=0, tv_nsec=999})");
    REQUIRE(ppoll.size() == 2);
    CHECK(ppoll[0].events == (kReadable | kHangup));
    CHECK(ppoll[1].fd == 7);
    CHECK(ppoll[1].events == kWritable);

    CHECK(readyOf("poll([{fd=5, events=POLLIN}], 1, 100) = 0 (Timeout)").empty());
}

TEST_CASE("select and pselect6: in, out and except sets", "[strace][decode][ready]") {
    const auto ready = readyOf(
        "pselect6(6, NULL, [5<TCP:[127.0.0.1:39276->127.0.0.1:47311]>], NULL, {tv_sec=1, tv_nsec=0}, NULL) = 1 (out "
        "[5], left {tv_sec=0, tv_nsec=999996685})");
    REQUIRE(ready.size() == 1);
    CHECK(ready[0].fd == 5);
    CHECK(ready[0].events == kWritable);

    const auto several = readyOf("select(9, [3 4], [8], [4], NULL) = 3 (in [3 4], out [8])");
    REQUIRE(several.size() == 3);
    CHECK(several[0].fd == 3);
    CHECK(several[1].fd == 4);
    CHECK(several[2].fd == 8);
    CHECK(several[2].events == kWritable);
}

TEST_CASE("epoll_wait: all three event formats strace versions print", "[strace][decode][ready]") {
    // strace before 5.x, strace 5.x to 6.x (Debian 12's 6.1), and a plain data value.
    for (const char* line :
         {"epoll_wait(4, [{EPOLLIN, {u32=5, u64=5}}], 3, -1) = 1",
          "epoll_wait(4<anon_inode:[eventpoll]>, [{events=EPOLLIN, data={u32=5, u64=5}}], 3, -1) = 1 <0.000009>",
          "epoll_wait(4, [{events=EPOLLIN, data=0x5}], 3, -1) = 1"}) {
        CAPTURE(line);
        const StraceLog log = parseStraceText(line);
        const SyscallRecord record = onlyRecord(log);
        CHECK(record.kind == SyscallKind::Wait);
        CHECK(record.fd == 4);
        const auto ready = log.readyFdsOf(record);
        REQUIRE(ready.size() == 1);
        CHECK(ready[0].fd == 5);
        CHECK(ready[0].events == kReadable);
    }
    // A pointer in data (python's selectors use the fd; others a pointer whose low bits are kept).
    const auto pointer = readyOf(
        "epoll_wait(4, [{events=EPOLLIN|EPOLLOUT, data={u32=3, u64=140325171494915}}, {events=EPOLLRDHUP|EPOLLERR, "
        "data={u32=9, u64=9}}], 3, -1) = 2");
    REQUIRE(pointer.size() == 2);
    CHECK(pointer[0].fd == 3);
    CHECK(pointer[0].events == (kReadable | kWritable));
    CHECK(pointer[1].events == (kPeerClosed | kError));

    const auto pwait = readyOf("epoll_pwait(7, [{events=EPOLLIN, data={u32=6, u64=6}}], 4, 1000, NULL, 8) = 1");
    REQUIRE(pwait.size() == 1);
    const auto pwait2 =
        readyOf("epoll_pwait2(7, [{events=EPOLLOUT, data={u32=6, u64=6}}], 4, {tv_sec=1, tv_nsec=0}, NULL, 8) = 1");
    REQUIRE(pwait2.size() == 1);
    CHECK(pwait2[0].events == kWritable);

    CHECK(readyOf("epoll_wait(4, [], 3, 0) = 0").empty());
}

TEST_CASE("epoll_ctl: the epoll fd, the target fd and the data", "[strace][decode]") {
    const StraceLog log = parseStraceText(
        "epoll_ctl(4<anon_inode:[eventpoll]>, EPOLL_CTL_ADD, 6<TCP:[127.0.0.1:46900->127.0.0.1:3306]>, "
        "{events=EPOLLIN|EPOLLET, data={u32=6, u64=6}}) = 0");
    const SyscallRecord record = onlyRecord(log);
    CHECK(record.kind == SyscallKind::EpollCtl);
    CHECK(record.fd == 4);
    CHECK(record.otherFd == 6);
    CHECK(record.epollOp == 1);
    CHECK(record.epollEvents == kReadable);
    CHECK(record.epollData == 6);
    CHECK(decorationText(log, record.otherFdDecoration) == "TCP:[127.0.0.1:46900->127.0.0.1:3306]");

    const SyscallRecord removed = parseOne("epoll_ctl(4, EPOLL_CTL_DEL, 6, NULL) = 0");
    CHECK(removed.epollOp == 2);
    CHECK(removed.otherFd == 6);
}

TEST_CASE("dup and fcntl(F_DUPFD) copy fds - other fcntl calls are not copies", "[strace][decode]") {
    const SyscallRecord dup2 = parseOne("dup2(5<TCP:[1.2.3.4:5->6.7.8.9:10]>, 1) = 1<TCP:[1.2.3.4:5->6.7.8.9:10]>");
    CHECK(dup2.kind == SyscallKind::Dup);
    CHECK(dup2.fd == 5);
    CHECK(dup2.otherFd == 1);
    const SyscallRecord dupfd = parseOne("fcntl(5, F_DUPFD_CLOEXEC, 0) = 9");
    CHECK(dupfd.kind == SyscallKind::Dup);
    CHECK(dupfd.otherFd == 9);
    const SyscallRecord getfl = parseOne("fcntl(5, F_GETFL) = 0x802 (flags O_RDWR|O_NONBLOCK)");
    CHECK(getfl.kind == SyscallKind::Other);
    CHECK(getfl.returnValue == 0x802);
}

TEST_CASE("clone: the child pid and whether it shares the fd table", "[strace][decode]") {
    const SyscallRecord thread = parseOne(
        "clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_"
        "PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7ff4128d1990, parent_tid=0x7ff4128d1990, exit_signal=0, "
        "stack=0x7ff4120d1000, stack_size=0x7fff80, tls=0x7ff4128d16c0} => {parent_tid=[29146]}, 88) = 29146");
    CHECK(thread.kind == SyscallKind::ProcessCreate);
    CHECK(thread.returnValue == 29146);
    CHECK(thread.has(kSharesFdTable));
    CHECK(thread.has(kThread));
    const SyscallRecord fork = parseOne(
        "clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f328ef58a10) = "
        "29046");
    CHECK(fork.returnValue == 29046);
    CHECK_FALSE(fork.has(kSharesFdTable));
}

TEST_CASE("strings cut by -s and strings holding quotes, braces and commas stay one argument", "[strace][decode]") {
    // -s 8 cuts strings to 8 characters and adds "...".
    const SyscallRecord cut =
        parseOne(R"(sendto(6<TCP:[127.0.0.1:47311->127.0.0.1:39332]>, "pong \"qu"..., 26, 0, NULL, 0) = 26)");
    CHECK(cut.fd == 6);
    CHECK(cut.requestedBytes == 26);
    CHECK(cut.bytes == 26);

    const SyscallRecord tricky = parseOne(R"(write(7, "a, b) = 3 {\"x\": [1, 2]} <5> \\", 31) = 31)");
    CHECK(tricky.fd == 7);
    CHECK(tricky.requestedBytes == 31);

    const SyscallRecord hex = parseOne(R"(sendto(6, "\x00\x01\x22\x7b\x5b", 5, 0, NULL, 0) = 5)");
    CHECK(hex.requestedBytes == 5);

    // A decoration with a comma and "->" in it (a UNIX socket with a path).
    const SyscallRecord unix = parseOne(R"(write(3<UNIX-STREAM:[71692->71693,"/run/a,b.sock"]>, "x", 1) = 1)");
    CHECK(unix.fd == 3);
    CHECK(unix.requestedBytes == 1);
}
