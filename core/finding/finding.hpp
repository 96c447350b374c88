#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "decode/ip_address.hpp"
#include "finding/finding_facts.hpp"
#include "finding/finding_impact.hpp"
#include "finding/finding_kind.hpp"
#include "finding/finding_span.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// How bad a finding is: error (it broke something), warning (it works but costs or is fragile), info.
enum class Severity : uint8_t { Error, Warning, Info };
/// "error", "warning" or "info".
std::string_view severityName(Severity severity);

/// Who a finding of no single flow is about, as the `client` and `server` columns of its record
/// hold them: an endpoint ("ip:port") or a host address, "" for a side it names nobody on.
struct FindingParties {
    std::string client;
    std::string server;
};

/// One diagnosed problem, as it appears in the report's `findings` array.
struct Finding {
    uint32_t id = 0;  ///< position in the FindingLog, stable while the finding grows
    /// What it is about (its JSON name: findingKindName); every detector sets its own.
    FindingKind kind = FindingKind::DelayedAckStall;
    Severity severity = Severity::Info;
    /// Live capture only (every finding of a finished analysis has all three false):
    bool ongoing = false;      ///< a stall of it is still going on; durationMs counts it up to the capture clock
    bool provisional = false;  ///< only the passing of time shows it so far; a packet confirms it or it is withdrawn
    bool withdrawn = false;    ///< was provisional, and the packets showed it was none: no longer a finding
    uint32_t connection = kNoConnection;  ///< the flow it concerns, or kNoConnection
    int64_t tsNs = 0;                     ///< when it started
    double durationMs = 0;                ///< time it cost, added up over its connections (connection-time)
    std::vector<uint32_t> frames;         ///< frame numbers of the evidence, in order
    std::string summary;                  ///< one sentence: what happened, what it cost, what fixes it
    /// The stretches of time it covers, in time order: its stalls (the first ones listed, as in the
    /// evidence), pauses, delayed handshakes. Written with the evidence (FindingAuthor::describe).
    std::vector<FindingSpan> spans;
    uint32_t totalSpans = 0;          ///< how many there were in all (`spans` may list only the first)
    /// What it cost in wall-clock time and to how many connections and requests, from all its waits
    /// (not only the listed spans). Written with the evidence.
    FindingImpact impact;
    /// The union of all its waits, in time order: for the wall-clock time of several findings at
    /// once (a cause's findings in the report). Not in the JSON.
    std::vector<WaitRange> waitRanges;
    std::optional<Side> waitingSide;  ///< stall findings: the side whose data waited (the sender)
    std::optional<Endpoint> server;   ///< port_exhaustion: the server its connections went to
    /// A finding of no flow (connection is kNoConnection), set when it is made: time_wait_churn its
    /// host on the side of its role, syn_backlog_overflow its listener as the server,
    /// port_exhaustion its client address and server. A finding of a flow names its flow's ends.
    FindingParties parties;
    /// path_mtu: the smallest packet size a router said its next hop takes; nullopt if none said.
    std::optional<uint32_t> nextHopMtu;
    /// What the reports say of it besides its impact: whom a finding of no flow names, what a
    /// finding that made nothing wait counted (its evidence says the same for the JSON).
    FindingFacts facts;
    /// Kind-specific fields, written out by the JSON report and shown by the details panel; every
    /// other reader takes the typed members above. What strace logs and capture points add is not
    /// here but beside the finding (FindingEnrichment, by id).
    nlohmann::json evidence = nlohmann::json::object();
};

/// Writes the impact and wait ranges of `waits` (and of `ongoing`, a wait going on) into `finding`.
inline void setImpact(Finding& finding, const WaitTally& waits, std::optional<WaitRange> ongoing = std::nullopt) {
    finding.impact = waits.impact(ongoing);
    finding.waitRanges = waits.merged(ongoing);
}

/// The time a finding is shown and ranked by: the wall-clock time its waits took (a listener's
/// connections wait at once), or the duration of a finding of no waits (a scan, a flood, churn).
inline double shownMs(const Finding& finding) {
    return finding.impact.delayedRequests > 0 ? finding.impact.wallMs : finding.durationMs;
}

}  // namespace tcpscope
