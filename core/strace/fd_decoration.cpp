#include "strace/fd_decoration.hpp"

#include <optional>

#include "strace/sockaddr_parser.hpp"
#include "strace/text_scan.hpp"

namespace tcpscope {
namespace {

using strace_text::isDigit;

struct ProtocolPrefix {
    std::string_view prefix;
    FdDecorationKind kind;
};

// Longer prefixes first, so "TCPv6:" wins over "TCP" and "UNIX-STREAM:" is a UNIX socket.
constexpr ProtocolPrefix kProtocols[] = {
    {"TCPv6:[", FdDecorationKind::Tcp6}, {"TCP:[", FdDecorationKind::Tcp},
    {"UDPv6:[", FdDecorationKind::Udp6}, {"UDP:[", FdDecorationKind::Udp},
    {"UNIX", FdDecorationKind::Unix},    {"socket:[", FdDecorationKind::OtherSocket},
    {"pipe:[", FdDecorationKind::Pipe},  {"anon_inode:", FdDecorationKind::AnonInode},
};

/// The content of "NAME:[content]": from the first ":[" to the last ']'.
std::string_view bracketContent(std::string_view text) {
    const size_t open = text.find(":[");
    const size_t close = text.rfind(']');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open + 2) {
        return {};
    }
    return text.substr(open + 2, close - open - 2);
}

/// Fills the endpoints and inode of an IP socket from "a:p->b:q", "a:p" or "inode".
void parseIpSocketContent(std::string_view content, FdDecoration& decoration) {
    if (const auto inode = strace_text::parseInteger(content); inode && *inode >= 0) {
        decoration.inode = static_cast<uint64_t>(*inode);
        return;
    }
    const size_t arrow = content.find("->");
    const std::string_view localText = arrow == std::string_view::npos ? content : content.substr(0, arrow);
    if (const auto local = parseEndpointText(localText)) {
        decoration.local = *local;
        decoration.hasLocal = true;
    }
    if (arrow != std::string_view::npos) {
        if (const auto remote = parseEndpointText(content.substr(arrow + 2))) {
            decoration.remote = *remote;
            decoration.hasRemote = true;
        }
    }
}

}  // namespace

bool FdDecoration::isSocket() const {
    switch (kind) {
        case FdDecorationKind::Tcp:
        case FdDecorationKind::Tcp6:
        case FdDecorationKind::Udp:
        case FdDecorationKind::Udp6:
        case FdDecorationKind::Unix:
        case FdDecorationKind::OtherSocket: return true;
        case FdDecorationKind::Pipe:
        case FdDecorationKind::AnonInode:
        case FdDecorationKind::Path: break;
    }
    return false;
}

FdDecoration parseFdDecoration(std::string_view text) {
    FdDecoration decoration;
    decoration.text = std::string(text);
    const ProtocolPrefix* protocol = nullptr;
    for (const ProtocolPrefix& candidate : kProtocols) {
        if (text.substr(0, candidate.prefix.size()) == candidate.prefix) {
            protocol = &candidate;
            break;
        }
    }
    if (protocol == nullptr) {
        // Other socket protocols print as "NAME:[...]" with an upper-case name (NETLINK, RAW, ...).
        const size_t open = text.find(":[");
        const bool upperName = open != std::string_view::npos && open > 0 && text[0] >= 'A' && text[0] <= 'Z';
        decoration.kind = upperName ? FdDecorationKind::OtherSocket : FdDecorationKind::Path;
        return decoration;
    }
    decoration.kind = protocol->kind;
    const std::string_view content = bracketContent(text);
    switch (decoration.kind) {
        case FdDecorationKind::Tcp:
        case FdDecorationKind::Tcp6:
        case FdDecorationKind::Udp:
        case FdDecorationKind::Udp6: parseIpSocketContent(content, decoration); break;
        case FdDecorationKind::Unix:
        case FdDecorationKind::OtherSocket:
        case FdDecorationKind::Pipe: {
            // "71692", "71692->71693" or "71692,\"/path\"": the first number is our inode.
            int64_t inode = 0;
            if (strace_text::parseLeadingInteger(content, inode) > 0 && inode >= 0) {
                decoration.inode = static_cast<uint64_t>(inode);
            }
            break;
        }
        case FdDecorationKind::AnonInode:
        case FdDecorationKind::Path: break;
    }
    return decoration;
}

size_t findDecorationEnd(std::string_view text, size_t open) {
    size_t angleDepth = 0;
    size_t bracketDepth = 0;
    for (size_t position = open; position < text.size(); ++position) {
        const char c = text[position];
        if (c == '\\') {
            ++position;
            continue;
        }
        if (c == '"') {
            position = strace_text::skipQuoted(text, position) - 1;
            continue;
        }
        // Brackets count only as "NAME:[" groups, so a '[' in a file name does not hide the end.
        if (c == '[' && (bracketDepth > 0 || (position > 0 && text[position - 1] == ':'))) {
            ++bracketDepth;
        } else if (c == ']' && bracketDepth > 0) {
            --bracketDepth;
        } else if (bracketDepth == 0) {
            if (c == '<') {
                ++angleDepth;
            } else if (c == '>' && angleDepth > 0 && --angleDepth == 0) {
                return position;
            }
        }
    }
    // Unbalanced brackets (a path with ":[" in it): settle for the first '>'.
    const size_t first = text.find('>', open);
    return first;
}

FdArgument parseFdArgument(std::string_view text) {
    FdArgument argument;
    int64_t number = 0;
    size_t used = 0;
    if (!text.empty() && (isDigit(text[0]) || text[0] == '-')) {
        used = strace_text::parseLeadingInteger(text, number);
    } else if (text.substr(0, 8) == "AT_FDCWD") {
        used = 8;
        number = -100;
    }
    if (used == 0 || number < INT32_MIN || number > INT32_MAX) {
        return argument;
    }
    argument.valid = true;
    argument.fd = static_cast<int32_t>(number);
    argument.length = used;
    if (used < text.size() && text[used] == '<') {
        const size_t close = findDecorationEnd(text, used);
        if (close != std::string_view::npos) {
            argument.decoration = text.substr(used + 1, close - used - 1);
            argument.length = close + 1;
        }
    }
    return argument;
}

}  // namespace tcpscope
