#pragma once
#include <cstdint>
#include <string>

namespace tcpscope {

/// The process that sent or received a packet, as the capture file says (ptcpdump's packet
/// comments, Apple's process information blocks, the pktap header). Text fields are valid UTF-8;
/// empty or -1 where the file does not say.
struct PacketProcess {
    int64_t pid = -1;
    int64_t thread = -1;  ///< ptcpdump's ThreadId: the thread that made the call
    std::string command;  ///< ptcpdump's Cmd (a path), the pktap or process block's name
    std::string args;     ///< the command line, as ptcpdump writes it
    int64_t parentPid = -1;
    std::string parentCommand;
    std::string container;  ///< ptcpdump's ContainerName
    std::string pod;        ///< ptcpdump's "namespace/name" of the pod
    std::string cgroup;     ///< the cgroup (v2) path, as tcpscope-cli record writes it ("Cgroup")
    std::string uuid;       ///< the process block's UUID (Apple), 32 hex digits
    /// macOS: the process on whose behalf `pid` sent or received (pth_epid, the effective process
    /// block), when it is another one.
    int64_t effectivePid = -1;
    std::string effectiveCommand;

    /// True if the file said anything of the process.
    [[nodiscard]] bool known() const { return pid > 0 || !command.empty(); }
    bool operator==(const PacketProcess&) const = default;
};

/// Which way a packet crossed the capturing host's interface (pcapng epb_flags, pktap pth_flags).
/// The process of an outbound packet sent it; that of an inbound one received it.
enum class PacketDirection : uint8_t { Unknown, Inbound, Outbound };

}  // namespace tcpscope
