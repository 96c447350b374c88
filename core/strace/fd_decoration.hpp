#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "decode/ip_address.hpp"

namespace tcpscope {

/// What an fd decoration (-y, -yy) says the fd is.
enum class FdDecorationKind : uint8_t {
    Tcp,          ///< "TCP:[...]" (-yy)
    Tcp6,         ///< "TCPv6:[...]" (-yy)
    Udp,          ///< "UDP:[...]"
    Udp6,         ///< "UDPv6:[...]"
    Unix,         ///< "UNIX:[...]", "UNIX-STREAM:[...]"
    OtherSocket,  ///< "socket:[inode]" (-y) or another protocol (NETLINK, ...)
    Pipe,         ///< "pipe:[inode]"
    AnonInode,    ///< "anon_inode:[eventpoll]" and friends
    Path,         ///< a file, directory or device path
};

/// One distinct fd decoration of a log, parsed once: `TCP:[127.0.0.1:48754->127.0.0.1:3306]`
/// (connected), `TCP:[127.0.0.1:3307]` (bound or listening), `TCP:[19363]` (inode only),
/// `TCPv6:[[::1]:5->[::1]:6]`, `socket:[19363]`, `/path/to/file`.
struct FdDecoration {
    FdDecorationKind kind = FdDecorationKind::Path;
    bool hasLocal = false;   ///< local endpoint known (TCP/UDP with an address)
    bool hasRemote = false;  ///< remote endpoint known (connected TCP/UDP)
    uint64_t inode = 0;      ///< socket or pipe inode when printed, else 0
    Endpoint local;
    Endpoint remote;
    std::string text;  ///< the text between '<' and '>' as strace printed it

    /// True for every socket kind (TCP, UDP, UNIX, socket:[...]).
    [[nodiscard]] bool isSocket() const;
    /// True for TCP over IPv4 or IPv6.
    [[nodiscard]] bool isTcp() const { return kind == FdDecorationKind::Tcp || kind == FdDecorationKind::Tcp6; }
};

/// Parses the text between the angle brackets of a decoration.
FdDecoration parseFdDecoration(std::string_view text);

/// Index of the '>' that closes the decoration opened by `text[open]` ('<'), or npos. Handles the
/// "->" inside "TCP:[a->b]", nested device decorations (`/dev/pts/0<char 136:0>`) and quotes.
size_t findDecorationEnd(std::string_view text, size_t open);

/// An fd argument or return value: "5", "5<TCP:[...]>", "AT_FDCWD</work>", "-1".
struct FdArgument {
    bool valid = false;  ///< the text starts with a number
    int32_t fd = -1;
    std::string_view decoration;  ///< text between '<' and '>', empty if none
    size_t length = 0;            ///< characters used, decoration included
};

/// Reads the fd number and decoration at the start of `text`.
FdArgument parseFdArgument(std::string_view text);

}  // namespace tcpscope
