#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcpscope {

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

/// The verdicts on a finding's stalls counted, as the reports say them of the finding as a whole.
struct VerdictCounts {
    uint32_t confirmed = 0;
    uint32_t refuted = 0;
    uint32_t untraced = 0;    ///< NoTrace
    bool nodelaySet = false;  ///< TCP_NODELAY was set before the held write of a traced stall
    std::string pattern;      ///< the calls around the held write of the last traced stall
};
/// `verdicts` counted.
VerdictCounts countVerdicts(const std::vector<StraceVerdict>& verdicts);
/// A finding's verdict from its stalls': confirmed if any stall is, else refuted if any is.
StraceVerdictKind findingVerdict(const VerdictCounts& counts);

/// What a system call trace shows of a port_exhaustion finding: the connect() calls that failed
/// with EADDRNOTAVAIL (to its server), when the first and last failed.
struct FailedConnects {
    uint64_t count = 0;
    int64_t firstTsNs = 0;
    int64_t lastTsNs = 0;
};

}  // namespace tcpscope
