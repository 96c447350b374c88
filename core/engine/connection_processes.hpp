#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "capture/packet_process.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// The processes at each end of each connection, from what the capture files say of their packets'
/// processes (RawPacket::process): the first one seen at an end is that end's process; other ones
/// seen there later are listed after it. Kept only for connections whose packets name a process.
class ConnectionProcesses {
public:
    /// Other processes listed per end beyond the first; more are counted, not listed.
    static constexpr size_t kListedOthers = 3;
    static constexpr uint32_t kNone = UINT32_MAX;

    /// The processes of one connection end: indexes in processes().
    struct End {
        uint32_t first = kNone;
        std::array<uint32_t, kListedOthers> others{kNone, kNone, kNone};
        uint32_t otherCount = 0;  ///< distinct processes after the first, exact up to kListedOthers

        [[nodiscard]] bool known() const { return first != kNone; }
        /// The processes listed after the first.
        [[nodiscard]] size_t listedOthers() const { return std::min<size_t>(otherCount, kListedOthers); }
        /// True if still more processes than those listed were seen at this end.
        [[nodiscard]] bool moreOthers() const { return otherCount > kListedOthers; }
    };

    /// Notes that end `end` of connection `connection` had a packet of `process` (owned by a
    /// reader; copied the first time it is met).
    void note(uint32_t connection, Side end, const PacketProcess* process);
    /// The processes of that end, or null if none was seen.
    [[nodiscard]] const End* of(uint32_t connection, Side end) const;
    /// The distinct processes met, in order of first sight.
    [[nodiscard]] const PacketProcess& process(uint32_t index) const { return processes_[index]; }
    /// True if no connection end has a process.
    [[nodiscard]] bool empty() const { return ends_.empty(); }

private:
    uint32_t indexOf(const PacketProcess* process);

    std::deque<PacketProcess> processes_;
    absl::flat_hash_map<const PacketProcess*, uint32_t> byAddress_;  // the readers' records met so far
    absl::flat_hash_map<std::string, uint32_t> byValue_;  // the same process from two records (two files)
    absl::flat_hash_map<uint32_t, std::array<End, 2>> ends_;  // by connection id
    // The last note, repeated by most packets: one comparison instead of two lookups.
    const PacketProcess* lastProcess_ = nullptr;
    uint32_t lastConnection_ = kNone;
    Side lastEnd_ = Side::Client;
};

}  // namespace tcpscope
