// The fd decorations of -y and -yy, and the socket addresses of connect/bind/accept.
#include "strace/fd_decoration.hpp"

#include <sys/socket.h>

#include <catch2/catch.hpp>

#include "strace/sockaddr_parser.hpp"

using namespace tcpscope;

TEST_CASE("TCP decorations of -yy: connected, listening, inode only", "[strace][decoration]") {
    const FdDecoration connected = parseFdDecoration("TCP:[127.0.0.1:48754->127.0.0.1:3306]");
    CHECK(connected.kind == FdDecorationKind::Tcp);
    CHECK(connected.isTcp());
    REQUIRE(connected.hasLocal);
    REQUIRE(connected.hasRemote);
    CHECK(connected.local.toString() == "127.0.0.1:48754");
    CHECK(connected.remote.toString() == "127.0.0.1:3306");

    const FdDecoration listening = parseFdDecoration("TCP:[127.0.0.1:3307]");
    CHECK(listening.hasLocal);
    CHECK_FALSE(listening.hasRemote);
    CHECK(listening.local.port == 3307);

    const FdDecoration inodeOnly = parseFdDecoration("TCP:[19363]");
    CHECK(inodeOnly.isTcp());
    CHECK(inodeOnly.inode == 19363);
    CHECK_FALSE(inodeOnly.hasLocal);
}

TEST_CASE("TCPv6 decorations of -yy put the address in brackets", "[strace][decoration]") {
    const FdDecoration connected = parseFdDecoration("TCPv6:[[::1]:51380->[::1]:47312]");
    CHECK(connected.kind == FdDecorationKind::Tcp6);
    CHECK(connected.local.toString() == "[::1]:51380");
    CHECK(connected.remote.toString() == "[::1]:47312");

    const FdDecoration mapped = parseFdDecoration("TCPv6:[[::ffff:127.0.0.1]:8080->[::ffff:127.0.0.1]:40000]");
    CHECK(mapped.local.address.isV4());
    CHECK(mapped.local.toString() == "127.0.0.1:8080");

    const FdDecoration listening = parseFdDecoration("TCPv6:[[::1]:47312]");
    CHECK(listening.hasLocal);
    CHECK_FALSE(listening.hasRemote);
}

TEST_CASE("other decorations: -y sockets, UNIX, pipes, epoll, paths", "[strace][decoration]") {
    CHECK(parseFdDecoration("socket:[71781]").kind == FdDecorationKind::OtherSocket);
    CHECK(parseFdDecoration("socket:[71781]").inode == 71781);
    CHECK(parseFdDecoration("socket:[71781]").isSocket());
    CHECK(parseFdDecoration("UNIX-STREAM:[71692->71693]").kind == FdDecorationKind::Unix);
    CHECK(parseFdDecoration("UNIX:[12345,\"/run/x.sock\"]").inode == 12345);
    CHECK(parseFdDecoration("UDP:[10.0.0.1:53->10.0.0.2:5353]").kind == FdDecorationKind::Udp);
    CHECK(parseFdDecoration("NETLINK:[ROUTE:1234]").kind == FdDecorationKind::OtherSocket);
    CHECK(parseFdDecoration("pipe:[57044]").kind == FdDecorationKind::Pipe);
    CHECK(parseFdDecoration("anon_inode:[eventpoll]").kind == FdDecorationKind::AnonInode);
    const FdDecoration path = parseFdDecoration("/usr/lib/x86_64-linux-gnu/libc.so.6");
    CHECK(path.kind == FdDecorationKind::Path);
    CHECK_FALSE(path.isSocket());
}

TEST_CASE("a decoration ends at its own '>', not at \"->\" or a nested device decoration", "[strace][decoration]") {
    const std::string_view tcp = "5<TCP:[127.0.0.1:48754->127.0.0.1:3306]>, rest";
    CHECK(findDecorationEnd(tcp, 1) == tcp.find("]>") + 1);
    const std::string_view device = "1</dev/pts/0<char 136:0>>, rest";
    CHECK(findDecorationEnd(device, 1) == device.find(">>") + 1);
    const std::string_view v6 = "5<TCPv6:[[::1]:51380->[::1]:47312]>)";
    CHECK(findDecorationEnd(v6, 1) == v6.size() - 2);

    const FdArgument argument = parseFdArgument("5<TCP:[127.0.0.1:48754->127.0.0.1:3306]>");
    CHECK(argument.valid);
    CHECK(argument.fd == 5);
    CHECK(argument.decoration == "TCP:[127.0.0.1:48754->127.0.0.1:3306]");
    CHECK(parseFdArgument("AT_FDCWD</work/main>").fd == -100);
    CHECK_FALSE(parseFdArgument("NULL").valid);
    CHECK(parseFdArgument("-1").fd == -1);
}

TEST_CASE("socket addresses", "[strace][sockaddr]") {
    const SocketAddress v4 =
        parseSocketAddress(R"({sa_family=AF_INET, sin_port=htons(3306), sin_addr=inet_addr("127.0.0.1")})");
    CHECK(v4.family == AF_INET);
    REQUIRE(v4.hasEndpoint);
    CHECK(v4.endpoint.toString() == "127.0.0.1:3306");

    const SocketAddress v6 = parseSocketAddress(
        R"({sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2001:db8::1", &sin6_addr), sin6_scope_id=0})");
    CHECK(v6.family == AF_INET6);
    CHECK(v6.endpoint.toString() == "[2001:db8::1]:443");

    CHECK(parseSocketAddress("NULL").family == 0);
    CHECK(parseSocketAddress("0x7ffd5c1e9a40").family == 0);
    CHECK(parseSocketAddress(R"({sa_family=AF_UNIX, sun_path="/tmp/x"})").family == AF_UNIX);
    CHECK_FALSE(parseSocketAddress(R"({sa_family=AF_INET, sin_port=htons(99999), sin_addr=inet_addr("127.0.0.1")})")
                    .hasEndpoint);
    CHECK_FALSE(
        parseSocketAddress(R"({sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("300.1.1.1")})").hasEndpoint);
    CHECK(parseEndpointText("[::1]:80")->port == 80);
    CHECK_FALSE(parseEndpointText("no-port").has_value());
}
