#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "finding/finding.hpp"
#include "finding/finding_kind.hpp"
#include "finding/kind_info.hpp"

namespace tcpscope {

/// One step of an incident's chain of cause and effect: "connections closed first, each holding its
/// port in TIME_WAIT", with the findings that show it.
struct ChainStep {
    FindingKind kind = FindingKind::DelayedAckStall;
    ChainRole role = ChainRole::Cause;
    std::string what;
    std::vector<uint32_t> findings;  ///< indices into the analysis's findings
};

/// Where the port range an incident's figures use came from.
enum class PortRangeSource : uint8_t {
    Given,     ///< set by the user (--port-range)
    Filled,    ///< a known range (Linux's, or IANA's as macOS and Windows use) that the ports used fill
    Observed,  ///< the span of the ports used, no known range being filled: a lower bound of the range
};

/// The ephemeral port range of a port pool's client addresses.
struct PortRange {
    uint16_t low = 0;
    uint16_t high = 0;
    PortRangeSource source = PortRangeSource::Observed;

    [[nodiscard]] uint32_t ports() const { return static_cast<uint32_t>(high) - low + 1; }
};

/// What an incident cost, in the user's terms (the report's `impact`). Each figure is set only where it
/// applies to the incident's kind of story.
struct IncidentImpact {
    // Requests or handshakes that waited, and their latency.
    std::optional<uint64_t> requestsDelayed;
    std::optional<double> latencyP50Ms;
    std::optional<double> latencyP99Ms;
    std::optional<double> latencyMaxMs;
    std::optional<double> latencyAddedMs;  ///< what the stall added to each delayed request, on average
    // A port pool.
    std::optional<uint64_t> connections;  ///< connections of the pool in the capture
    std::optional<uint64_t>
        connectionsBeforeStop;                  ///< before the pause, or in all when the capture ends on a full range
    std::optional<double> pauseMs;              ///< the longest time without a new connection once the range was full
    std::optional<double> rateAchievedPerS;     ///< connections (or answered connections) per second
    std::optional<double> rateSustainablePerS;  ///< ports in the range / TIME_WAIT seconds, per client address, summed
    std::optional<PortRange> portRange;
    std::optional<double> timeWaitS;
    std::optional<uint64_t> connectFailures;  ///< connect() calls that failed (strace), with `connectErrno`
    std::string connectErrno;
    // A listener.
    std::optional<uint64_t> synsDropped;   ///< SYNs sent again because the first went unanswered
    std::vector<double> synRetryOffsetsS;  ///< the clients' retransmissions after their first SYN, as measured
    std::optional<uint64_t> connectionsAnswered;
    /// Wall-clock time during which something waited: what users felt.
    std::optional<double> wallMs;
};

/// What to change, said for this capture: one sentence each.
struct IncidentFix {
    std::vector<std::string> doThis;
    std::vector<std::string> doesNotHelp;
};

/// A moment of an incident: the first SYN dropped, the range full, the pause, the recovery.
struct IncidentEvent {
    int64_t tsNs = 0;
    std::string what;
    std::vector<uint32_t> frames;
};

/// A story a person reads: findings linked by cause and effect (incident_linking), what it cost
/// in the user's terms and the fix that fits the capture.
struct Incident {
    uint32_t id = 0;  ///< its position in the investigation's incidents
    std::string title;
    Severity severity = Severity::Info;
    IncidentScope scope = IncidentScope::Connection;
    std::string subject;             ///< what the story is about: a server endpoint, a proxy, a listener
    std::vector<uint32_t> findings;  ///< indices into the analysis's findings, in time order
    std::vector<ChainStep> chain;    ///< causes first, then effects in the order they began
    std::vector<std::string> hosts;
    std::vector<std::string> processes;
    IncidentImpact impact;
    IncidentFix fix;
    std::vector<IncidentEvent> events;  ///< in time order
    /// capture_quality findings whose trouble falls in the incident's time: a caveat to its figures.
    std::vector<uint32_t> caveats;
};

}  // namespace tcpscope
