#include "strace/socket_constants.hpp"

#include <array>
#include <utility>

#include "strace/text_scan.hpp"

namespace tcpscope {
namespace {

using strace_text::trim;

struct OptionName {
    std::string_view name;
    SocketOption option;
};

constexpr std::array kOptionNames{
    OptionName{"TCP_NODELAY", SocketOption::TcpNodelay},
    OptionName{"TCP_CORK", SocketOption::TcpCork},
    OptionName{"TCP_QUICKACK", SocketOption::TcpQuickack},
    OptionName{"TCP_KEEPIDLE", SocketOption::TcpKeepidle},
    OptionName{"TCP_KEEPINTVL", SocketOption::TcpKeepintvl},
    OptionName{"TCP_KEEPCNT", SocketOption::TcpKeepcnt},
    OptionName{"TCP_USER_TIMEOUT", SocketOption::TcpUserTimeout},
    OptionName{"TCP_NOTSENT_LOWAT", SocketOption::TcpNotsentLowat},
    OptionName{"SO_LINGER", SocketOption::SoLinger},
    OptionName{"SO_REUSEADDR", SocketOption::SoReuseaddr},
    OptionName{"SO_REUSEPORT", SocketOption::SoReuseport},
    OptionName{"SO_KEEPALIVE", SocketOption::SoKeepalive},
    OptionName{"SO_SNDBUF", SocketOption::SoSndbuf},
    OptionName{"SO_RCVBUF", SocketOption::SoRcvbuf},
    OptionName{"SO_ERROR", SocketOption::SoError},
};

/// Bits of the poll(2) events (the EPOLL ones are the same numbers).
constexpr uint32_t kPollIn = 0x1;
constexpr uint32_t kPollPri = 0x2;
constexpr uint32_t kPollOut = 0x4;
constexpr uint32_t kPollErr = 0x8;
constexpr uint32_t kPollHup = 0x10;
constexpr uint32_t kPollNval = 0x20;
constexpr uint32_t kPollRdNorm = 0x40;
constexpr uint32_t kPollWrNorm = 0x100;
constexpr uint32_t kPollRdHup = 0x2000;

uint8_t readyEventsFromMask(uint64_t mask) {
    uint8_t events = 0;
    if ((mask & (kPollIn | kPollRdNorm)) != 0) {
        events |= kReadable;
    }
    if ((mask & (kPollOut | kPollWrNorm)) != 0) {
        events |= kWritable;
    }
    if ((mask & (kPollErr | kPollNval)) != 0) {
        events |= kError;
    }
    if ((mask & kPollHup) != 0) {
        events |= kHangup;
    }
    if ((mask & kPollRdHup) != 0) {
        events |= kPeerClosed;
    }
    if ((mask & kPollPri) != 0) {
        events |= kPriority;
    }
    return events;
}

uint8_t readyEventFromName(std::string_view name) {
    if (!name.empty() && name[0] == 'E') {
        name.remove_prefix(1);  // EPOLLIN -> POLLIN
    }
    static constexpr std::array<std::pair<std::string_view, uint8_t>, 9> kNames{{
        {"POLLIN", kReadable},
        {"POLLRDNORM", kReadable},
        {"POLLOUT", kWritable},
        {"POLLWRNORM", kWritable},
        {"POLLERR", kError},
        {"POLLNVAL", kError},
        {"POLLHUP", kHangup},
        {"POLLRDHUP", kPeerClosed},
        {"POLLPRI", kPriority},
    }};
    for (const auto& [text, event] : kNames) {
        if (text == name) {
            return event;
        }
    }
    return 0;
}

}  // namespace

SocketOptionLevel socketOptionLevelFromName(std::string_view name) {
    name = trim(name);
    if (name == "SOL_SOCKET") {
        return SocketOptionLevel::Socket;
    }
    if (name == "SOL_TCP" || name == "IPPROTO_TCP") {
        return SocketOptionLevel::Tcp;
    }
    if (name == "SOL_IP" || name == "IPPROTO_IP") {
        return SocketOptionLevel::Ip;
    }
    if (name == "SOL_IPV6" || name == "IPPROTO_IPV6") {
        return SocketOptionLevel::Ipv6;
    }
    return name.empty() ? SocketOptionLevel::None : SocketOptionLevel::Other;
}

SocketOption socketOptionFromName(std::string_view name) {
    name = trim(name);
    for (const OptionName& entry : kOptionNames) {
        if (entry.name == name) {
            return entry.option;
        }
    }
    return name.empty() ? SocketOption::None : SocketOption::Other;
}

std::string_view socketOptionName(SocketOption option) {
    for (const OptionName& entry : kOptionNames) {
        if (entry.option == option) {
            return entry.name;
        }
    }
    return {};
}

uint8_t socketTypeFromText(std::string_view text, bool& nonBlocking) {
    text = trim(text);
    nonBlocking = text.find("SOCK_NONBLOCK") != std::string_view::npos;
    const std::string_view base = text.substr(0, text.find('|'));
    static constexpr std::array<std::pair<std::string_view, uint8_t>, 5> kTypes{
        {{"SOCK_STREAM", 1}, {"SOCK_DGRAM", 2}, {"SOCK_RAW", 3}, {"SOCK_RDM", 4}, {"SOCK_SEQPACKET", 5}}};
    for (const auto& [name, type] : kTypes) {
        if (name == base) {
            return type;
        }
    }
    const auto number = strace_text::parseInteger(base);
    return number && *number > 0 && *number < 16 ? static_cast<uint8_t>(*number) : 0;
}

uint16_t protocolFromName(std::string_view name) {
    name = trim(name);
    static constexpr std::array<std::pair<std::string_view, uint16_t>, 6> kProtocols{{{"IPPROTO_IP", 0},
                                                                                      {"IPPROTO_TCP", 6},
                                                                                      {"IPPROTO_UDP", 17},
                                                                                      {"IPPROTO_IPV6", 41},
                                                                                      {"IPPROTO_SCTP", 132},
                                                                                      {"IPPROTO_MPTCP", 262}}};
    for (const auto& [text, number] : kProtocols) {
        if (text == name) {
            return number;
        }
    }
    const auto number = strace_text::parseInteger(name);
    return number && *number > 0 && *number <= UINT16_MAX ? static_cast<uint16_t>(*number) : 0;
}

uint8_t shutdownHowFromName(std::string_view name) {
    name = trim(name);
    if (name == "SHUT_RD") {
        return 0;
    }
    if (name == "SHUT_WR") {
        return 1;
    }
    if (name == "SHUT_RDWR") {
        return 2;
    }
    const auto number = strace_text::parseInteger(name);
    return number && *number >= 0 && *number <= 2 ? static_cast<uint8_t>(*number) : UINT8_MAX;
}

uint8_t epollOpFromName(std::string_view name) {
    name = trim(name);
    if (name == "EPOLL_CTL_ADD") {
        return 1;
    }
    if (name == "EPOLL_CTL_DEL") {
        return 2;
    }
    if (name == "EPOLL_CTL_MOD") {
        return 3;
    }
    return 0;
}

uint8_t readyEventsFromText(std::string_view text) {
    text = trim(text);
    uint8_t events = 0;
    while (!text.empty()) {
        const size_t bar = text.find('|');
        const std::string_view part = trim(text.substr(0, bar));
        uint64_t mask = 0;
        if (!part.empty() && strace_text::isDigit(part[0])) {
            if (strace_text::parseLeadingUnsigned(part, mask) > 0) {
                events |= readyEventsFromMask(mask);
            }
        } else {
            events |= readyEventFromName(part);
        }
        if (bar == std::string_view::npos) {
            break;
        }
        text.remove_prefix(bar + 1);
    }
    return events;
}

}  // namespace tcpscope
