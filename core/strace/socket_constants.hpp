#pragma once
#include <cstdint>
#include <string_view>

#include "strace/syscall_record.hpp"

namespace tcpscope {

/// SOL_SOCKET, SOL_TCP / IPPROTO_TCP, SOL_IP, SOL_IPV6 (or their numbers).
SocketOptionLevel socketOptionLevelFromName(std::string_view name);
/// TCP_NODELAY, TCP_CORK, TCP_QUICKACK, SO_LINGER, SO_REUSEADDR, SO_REUSEPORT, ...; Other if not known.
SocketOption socketOptionFromName(std::string_view name);
/// "TCP_NODELAY" for SocketOption::TcpNodelay; "" for None and Other.
std::string_view socketOptionName(SocketOption option);

/// The SOCK_* type of "SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK" (1 here); sets `nonBlocking`.
uint8_t socketTypeFromText(std::string_view text, bool& nonBlocking);
/// IPPROTO_TCP -> 6, IPPROTO_IP -> 0, IPPROTO_UDP -> 17, a number -> itself.
uint16_t protocolFromName(std::string_view name);
/// SHUT_RD -> 0, SHUT_WR -> 1, SHUT_RDWR -> 2 (also numbers).
uint8_t shutdownHowFromName(std::string_view name);
/// EPOLL_CTL_ADD -> 1, EPOLL_CTL_DEL -> 2, EPOLL_CTL_MOD -> 3 (0 if unknown).
uint8_t epollOpFromName(std::string_view name);
/// ReadyEvent bits of "POLLIN|POLLHUP", "EPOLLIN|EPOLLOUT|EPOLLET" or a hex mask.
uint8_t readyEventsFromText(std::string_view text);

}  // namespace tcpscope
