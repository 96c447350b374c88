#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sinks/sink_spec.hpp"

namespace tcpscope {

/// One host that exported records: what it sent and when.
struct FleetHost {
    std::string host;
    uint64_t flows = 0;
    uint64_t findings = 0;
    uint64_t captures = 0;  ///< distinct capture_id among its flows
    int64_t firstTsNs = 0;  ///< its first flow's start
    int64_t lastTsNs = 0;   ///< its last flow's end
};

/// One finding of one host, as its records hold it.
struct HostFinding {
    std::string host;
    std::string captureId;
    uint32_t findingId = 0;
    std::string kind;
    std::string severity;
    int64_t tsNs = 0;
    int64_t flowId = -1;
    double wallMs = 0;
    double durationMs = 0;  ///< connection-time
    std::string client;
    std::string server;
    std::string summary;
};

/// One flow of one host, as its records hold it.
struct HostFlow {
    std::string captureId;
    uint32_t flowId = 0;
    std::string client;  ///< ip:port
    std::string server;  ///< ip:port
    int64_t tsNs = 0;
    int64_t endTsNs = 0;
    std::string state;
    uint64_t packets = 0;
    uint64_t bytes = 0;
    std::optional<double> handshakeRttMs;
    double timeLostMs = 0;
};

/// Which findings of which hosts to list: every finding of `hosts` (all hosts if empty) from
/// `sinceNs` on, or only those of `kind` towards `server` within [fromNs, toNs) when given.
struct HostFindingFilter {
    std::vector<std::string> hosts;
    int64_t sinceNs = 0;
    std::string kind;
    std::string server;
    int64_t fromNs = 0;
    int64_t toNs = 0;  ///< 0: no end
};

/// Which flows of one host to list: those of one capture towards `server` (any if empty) that were
/// open at some time in [fromNs, toNs], or the one flow `flowId` (with `server` and times ignored).
struct HostFlowFilter {
    std::string host;
    std::string captureId;
    std::string server;
    int64_t fromNs = 0;
    int64_t toNs = 0;  ///< 0: no end
    std::optional<uint32_t> flowId;
};

/// The flows of `finding`'s host to list beside it: those of its capture towards its server (or
/// the host it names) open in its first wall-clock time (at least a second) from its start; a
/// record holds a finding's start and how long its waits went on, not its end.
HostFlowFilter flowsOfFinding(const HostFinding& finding);

/// The largest number of rows a drill-down query returns (the GUI shows no more; the count says so).
inline constexpr size_t kDrilldownRowLimit = 2000;

/// The SQL of each query, for docs/records.md and the tests.
std::string fleetHostsSql(const std::string& database, int64_t sinceNs);
std::string hostFindingsSql(const std::string& database, const HostFindingFilter& filter);
std::string hostFlowsSql(const std::string& database, const HostFlowFilter& filter);

/// Runs them on the server. Throw std::runtime_error with the server's message or the connection's
/// failure.
std::vector<FleetHost> queryFleetHosts(const ClickHouseTarget& target, int64_t sinceNs, double timeoutSeconds);
std::vector<HostFinding> queryHostFindings(const ClickHouseTarget& target, const HostFindingFilter& filter,
                                           double timeoutSeconds);
std::vector<HostFlow> queryHostFlows(const ClickHouseTarget& target, const HostFlowFilter& filter,
                                     double timeoutSeconds);

/// `text` as a ClickHouse string literal: in single quotes, with backslash and quote escaped.
std::string sqlString(const std::string& text);

}  // namespace tcpscope
