#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

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

/// What the system call trace says of one stall: the application wrote the held bytes long before
/// they left (confirmed), only just before (refuted), or no traced write carried them.
enum class StraceVerdictKind : uint8_t { Confirmed, Refuted, NoTrace };
/// "confirmed", "refuted" or "no_trace".
std::string_view straceVerdictName(StraceVerdictKind verdict);

/// One traced system call, as a verdict cites it.
struct TracedCall {
    std::string name;   ///< "sendto", "write", ...
    int64_t bytes = 0;  ///< bytes it wrote
    int64_t tsNs = 0;   ///< on the capture's clock
    uint32_t line = 0;  ///< where it starts in its strace log
};

/// The trace's verdict on one stall of a delayed-ACK finding (strace confirmation). Everything
/// but `verdict` is set only when a traced write carried the held bytes (not NoTrace).
struct StraceVerdict {
    StraceVerdictKind verdict = StraceVerdictKind::NoTrace;
    int32_t pid = 0;
    int32_t fd = -1;
    TracedCall heldWrite;                  ///< the write whose bytes waited
    std::optional<TracedCall> firstWrite;  ///< the write of the small segment before, if traced
    double kernelHoldMs = 0;               ///< from the held write to its bytes on the wire
    bool nodelaySet = false;               ///< TCP_NODELAY was set on the socket before the held write
    std::string nextCall;                  ///< the first wait or read of the process after it ("" if none)
    std::string pattern;                   ///< "sendto, sendto, epoll_wait": the calls around the held write
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

/// What a system call trace shows of a port_exhaustion finding: the connect() calls that failed
/// with EADDRNOTAVAIL (to its server), when the first and last failed.
struct FailedConnects {
    uint64_t count = 0;
    int64_t firstTsNs = 0;
    int64_t lastTsNs = 0;
};

}  // namespace tcpscope
