#pragma once
#include <cstdint>
#include <optional>

namespace tcpscope {

/// Nanoseconds wider than int64 reaches: a pcapng count of any unit shifted by any if_tsoffset.
__extension__ typedef __int128 WideNs;  // NOLINT: the 128-bit type has no standard name

/// A moment on the Unix epoch's axis, wider than int64 nanoseconds reach (1677 to 2262): a pcapng
/// timestamp is a 64-bit count of any unit, shifted by a 64-bit number of seconds.
struct EpochTime {
    int64_t seconds = 0;       ///< whole seconds after the epoch, rounded down (negative: before it)
    uint32_t nanoseconds = 0;  ///< 0 to 999,999,999 after them

    auto operator<=>(const EpochTime&) const = default;
    /// The moment `epochNs` nanoseconds after the epoch.
    static EpochTime fromNs(int64_t epochNs);
    /// The same for any count, its seconds held at the int64 limits (292 billion years).
    static EpochTime fromWideNs(WideNs epochNs);
};

/// Where the times of one capture count from: every packet time in the engine is int64
/// nanoseconds after it, so that the engine's arithmetic stays plain and every duration exact.
/// It is the Unix epoch for a capture that starts between 1824 and 2116 (every pcap file, nearly
/// every pcapng file), whose times are then plain epoch nanoseconds. A capture that starts outside
/// counts from the start of its era (2^32 seconds, about 136 years, wide), so files of one era
/// share their origin. Every absolute time written out adds the origin back (absolute()).
struct TimeOrigin {
    int64_t epochSeconds = 0;  ///< the origin's seconds after the Unix epoch

    bool operator==(const TimeOrigin&) const = default;
    [[nodiscard]] bool isEpoch() const { return epochSeconds == 0; }

    /// The origin for a capture whose first packet is at `first`.
    static TimeOrigin forFirstPacket(EpochTime first);
    /// `time` as nanoseconds after this origin; nullopt when that is beyond the 292 years int64
    /// nanoseconds reach either side.
    [[nodiscard]] std::optional<int64_t> relativeNs(EpochTime time) const;
    /// The same for `epochNs` nanoseconds after the epoch.
    [[nodiscard]] std::optional<int64_t> relativeNs(WideNs epochNs) const;
    /// The moment `tsNs` nanoseconds after this origin.
    [[nodiscard]] EpochTime absolute(int64_t tsNs) const;
    /// Nanoseconds after the epoch of the capture time `tsNs`, held at the int64 limits (1677 and
    /// 2262): the form of stores that keep int64 epoch nanoseconds (the records).
    [[nodiscard]] int64_t epochNs(int64_t tsNs) const;
    /// What to add to times after `other` to put them after this origin; nullopt when the two are
    /// more than 292 years apart.
    [[nodiscard]] std::optional<int64_t> shiftFromNs(TimeOrigin other) const;
};

/// `tsNs + shiftNs`, held at the int64 limits instead of wrapping.
int64_t shiftedNs(int64_t tsNs, int64_t shiftNs);

/// Packet times are held within this of their capture's origin (2^62 ns less one, 146 years either
/// side): any difference of two of them then fits in int64, so no duration measured between packets
/// can overflow. A capture's first packet always lies within it (its origin is chosen so).
inline constexpr int64_t kPacketTimeReachNs = (int64_t{1} << 62) - 1;

/// `ns` held within ±`reachNs`.
inline int64_t heldNs(int64_t ns, int64_t reachNs) { return ns < -reachNs ? -reachNs : ns > reachNs ? reachNs : ns; }

/// `tsNs` held within ±kPacketTimeReachNs.
inline int64_t heldPacketTimeNs(int64_t tsNs) { return heldNs(tsNs, kPacketTimeReachNs); }

/// `ns + shiftNs` held within ±`reachNs`, without wrapping.
inline int64_t heldSumNs(int64_t ns, int64_t shiftNs, int64_t reachNs) { return heldNs(shiftedNs(ns, shiftNs), reachNs); }

}  // namespace tcpscope
