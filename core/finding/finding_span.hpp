#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>

#include "tcp/connection.hpp"

namespace tcpscope {

/// What a frame of a span is (the row of a kind lists its roles: KindInfo::frames). Readers take a
/// span's frames by role (SpanFrames::of), never by position: a span may leave a frame out.
enum class FrameRole : uint8_t {
    SmallSegment,        ///< delayed_ack_stall: the small segment whose ACK the receiver delayed
    LateAck,             ///< delayed_ack_stall: that delayed ACK, which let the held segment go
    HeldSegment,         ///< delayed_ack_stall: the segment Nagle held
    LastTransmission,    ///< retransmission_stall: the last transmission before the wait
    Retransmission,      ///< retransmission_stall: the resend after the timer
    WindowClosed,        ///< zero_window_stall: the receiver's zero window
    FirstProbe,          ///< zero_window_stall: the sender's first window probe
    WindowEnd,           ///< zero_window_stall: the frame that ended the wait (the window opening)
    FirstSyn,            ///< syn_backlog_overflow, port_reuse: the client's first SYN
    ServerAnswer,        ///< port_reuse: the server's answer for the old connection (challenge ACK or RST)
    HandshakeEnd,        ///< port_reuse: the end of the handshake, or the last SYN sent when none completed
    LastSynBeforePause,  ///< port_exhaustion: the last SYN before the pause
    NextSyn,             ///< port_exhaustion: the first SYN after it
    RefusedSegment,      ///< path_mtu: the data's last transmission before the router's message
    TooBigMessage,       ///< path_mtu: the router's ICMP "too big" message
    SmallerResend,       ///< path_mtu: the data's first resend, smaller
};

/// A frame of a span and what it is.
struct RoleFrame {
    FrameRole role = FrameRole::FirstSyn;
    uint32_t frame = 0;
};

/// The frames of one span, each with its role, in order (at most kCapacity): the frame that began
/// the wait first, the one that ended it last; a delayed-ACK stall's are the small segment, the
/// late ACK and the held segment.
class SpanFrames {
public:
    static constexpr size_t kCapacity = 3;

    SpanFrames() = default;
    /// The frames given (the first kCapacity).
    SpanFrames(std::initializer_list<RoleFrame> frames) {
        for (const RoleFrame& frame : frames) {
            push_back(frame.role, frame.frame);
        }
    }

    /// Appends `frame` in `role`; beyond kCapacity frames, nothing.
    void push_back(FrameRole role, uint32_t frame) {
        if (count_ < kCapacity) {
            frames_[count_] = frame;
            roles_[count_] = role;
            ++count_;
        }
    }
    /// The frame in `role`, or nullopt if the span has none.
    [[nodiscard]] std::optional<uint32_t> of(FrameRole role) const {
        for (size_t index = 0; index < count_; ++index) {
            if (roles_[index] == role) {
                return frames_[index];
            }
        }
        return std::nullopt;
    }
    /// The role of the frame at `index`.
    [[nodiscard]] FrameRole roleAt(size_t index) const { return roles_[index]; }

    [[nodiscard]] size_t size() const { return count_; }
    [[nodiscard]] bool empty() const { return count_ == 0; }
    [[nodiscard]] const uint32_t* begin() const { return frames_.data(); }
    [[nodiscard]] const uint32_t* end() const { return frames_.data() + count_; }
    /// The frame that began the wait.
    [[nodiscard]] uint32_t front() const { return frames_[0]; }
    /// The frame that ended it (or the last one seen).
    [[nodiscard]] uint32_t back() const { return frames_[count_ - 1]; }

private:
    std::array<uint32_t, kCapacity> frames_{};
    std::array<FrameRole, kCapacity> roles_{};
    uint8_t count_ = 0;
};

/// One stretch of time a finding covers: a stall of a connection (from when the waiting side could
/// not send to the packet that let it), a pause of a port pool, a delayed handshake, an instant
/// (a reused port). The timeline, the sequence diagram, stall navigation and strace confirmation
/// read these; the evidence JSON says the same for the reports.
struct FindingSpan {
    int64_t startNs = 0;
    int64_t endNs = 0;                    ///< == startNs for an instant
    uint32_t connection = kNoConnection;  ///< kNoConnection for a span of a host or a port pool
    Side side = Side::Client;             ///< the side that waited to send
    SpanFrames frames{};
    // What the sequence diagram tells of a stall (0 or false where the kind has none):
    int64_t releaseTsNs = 0;    ///< delayed ACK: when the late ACK came
    uint32_t bytes = 0;         ///< bytes that waited: the held segment (delayed ACK), the resent one
    uint32_t earlierBytes = 0;  ///< delayed ACK: the small segment whose ACK was late
    bool spurious = false;      ///< retransmission: the data had arrived (a spurious retransmission)
};

}  // namespace tcpscope
