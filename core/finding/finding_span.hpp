#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "tcp/connection.hpp"

namespace tcpscope {

/// The frames of one span, in order (at most kCapacity): the frame that began the wait first, the
/// one that ended it last; a delayed-ACK stall's are P, the late ACK and D.
class SpanFrames {
public:
    static constexpr size_t kCapacity = 3;

    SpanFrames() = default;
    /// The frames given (the first kCapacity).
    SpanFrames(std::initializer_list<uint32_t> frames) {
        for (const uint32_t frame : frames) {
            push_back(frame);
        }
    }

    /// Appends `frame`; beyond kCapacity frames, nothing.
    void push_back(uint32_t frame) {
        if (count_ < kCapacity) {
            frames_[count_++] = frame;
        }
    }

    [[nodiscard]] size_t size() const { return count_; }
    [[nodiscard]] bool empty() const { return count_ == 0; }
    [[nodiscard]] const uint32_t* begin() const { return frames_.data(); }
    [[nodiscard]] const uint32_t* end() const { return frames_.data() + count_; }
    [[nodiscard]] uint32_t front() const { return frames_[0]; }
    [[nodiscard]] uint32_t back() const { return frames_[count_ - 1]; }
    [[nodiscard]] uint32_t operator[](size_t index) const { return frames_[index]; }

private:
    std::array<uint32_t, kCapacity> frames_{};
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
