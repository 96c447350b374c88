#pragma once
#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <string>
#include <utility>

#include "capture/raw_packet.hpp"
#include "decode/ip_address.hpp"
#include "recorded/recorded_call.hpp"
#include "recorder/process_details.hpp"

namespace tcpscope {

struct TcpSegment;

/// The process of each connection end that a recorded call showed (its socket's 4-tuple), and
/// the comment that names it on that end's packets, as ptcpdump writes its packet comments
/// (capture/ptcpdump_comment.hpp reads them). /proc is read once per process, at its first call.
/// Not thread-safe: its owner locks.
class CallProcesses {
public:
    /// A packet's process comment, with the direction that says which end it is: the sender's
    /// (outbound) if a call showed it, else the receiver's (inbound). Empty when no call showed either end.
    struct PacketEnd {
        std::string comment;
        PacketDirection direction = PacketDirection::Unknown;
    };

    /// Learns the end of `call`'s socket, if the call read one.
    void learn(const RecordedCall& call);
    /// The process comment of a TCP segment's packet.
    [[nodiscard]] PacketEnd of(const TcpSegment& segment) const;

private:
    struct EndProcess {
        uint32_t pid = 0;
        uint32_t tid = 0;
        std::string comment;
    };
    const ProcessDetails& detailsOf(uint32_t pid);
    [[nodiscard]] const EndProcess* find(const Endpoint& local, const Endpoint& remote) const;

    absl::flat_hash_map<std::pair<Endpoint, Endpoint>, EndProcess> ends_;
    absl::flat_hash_map<uint32_t, ProcessDetails> processes_;  // by pid
};

}  // namespace tcpscope
