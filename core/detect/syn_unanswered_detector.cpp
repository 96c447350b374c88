#include "detect/syn_unanswered_detector.hpp"

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "detect/support/evidence_json.hpp"
#include "finding/finding_impact.hpp"
#include "finding/wording.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr double kNsPerS = 1e9;
constexpr size_t kMaxListed = 1000;  // connections and frames a finding lists; counts keep all

// A source that tried this many ports of one host is scanning it.
constexpr size_t kScanPorts = 10;
// An endpoint hit by this many failed attempts from this many source endpoints, in a burst of at
// least this rate, is flooded; and most of its attempts failed.
constexpr size_t kFloodAttempts = 50;
constexpr size_t kFloodSources = 20;
constexpr double kFloodRatePerS = 10;
// A client whose unanswered attempts went to more servers than this gets one finding for them all.
constexpr size_t kGroupByClientServers = 5;
// The least time between a SYN and its retransmission, on average over an attempt, that a TCP
// stack's timer gives (1 s on Linux and macOS, 3 s on older Windows): SYNs repeated faster are a
// scanner's or fingerprinter's probes.
constexpr int64_t kMinSynRetryNs = 400 * kNsPerMs;

double toMs(int64_t ns) { return static_cast<double>(ns) / kNsPerMs; }

}  // namespace

void SynUnansweredDetector::consider(const Connection& connection) {
    if (connection.midstream || !connection.from(Side::Client).sawSyn || !onlyAnAttempt(connection)) {
        return;  // not begun here, or it became a connection
    }
    Attempt attempt;
    attempt.connection = connection.id;
    attempt.firstFrame = connection.firstFrame;
    attempt.syns = connection.synCount;
    attempt.client = connection.client;
    attempt.server = connection.server;
    attempt.firstTsNs = connection.firstTsNs;
    attempt.lastTsNs = connection.lastTsNs;
    attempt.lastSynTsNs = connection.synTsNs != kNoTime ? connection.synTsNs : connection.firstTsNs;
    attempt.synAcked = connection.synAckCount > 0;
    attempt.resetByServer = connection.hasResetBy && connection.resetBy == Side::Server;
    attempts_.push_back(attempt);
}

void SynUnansweredDetector::onRetire(const Connection& connection) {
    const size_t before = attempts_.size();
    consider(connection);
    if (attempts_.size() != before) {
        retiredAttempts_.insert(connection.id);
    }
}

void SynUnansweredDetector::onEnd(int64_t /*lastTsNs*/) {
    const ConnectionStore& connections = engine().connections();
    for (size_t index = 0; index < connections.size(); ++index) {
        if (connections.holds(index) && !retiredAttempts_.contains(static_cast<uint32_t>(index))) {
            consider(connections[index]);
        }
    }
    std::sort(attempts_.begin(), attempts_.end(),
              [](const Attempt& a, const Attempt& b) { return a.connection < b.connection; });
    std::vector<bool> used(attempts_.size(), false);
    findScans(used);
    findProbedHosts(used);
    findFloods(used);
    findUnanswered(used);
    attempts_ = {};
    retiredAttempts_ = {};
}

Finding SynUnansweredDetector::findingAbout(const std::vector<uint32_t>& members, FindingKind kind, Severity severity,
                                            nlohmann::json::array_t& listed) const {
    const Attempt& first = attempts_[members.front()];
    Finding finding;
    finding.kind = kind;
    finding.severity = severity;
    finding.connection = first.connection;
    finding.tsNs = first.firstTsNs;
    for (const uint32_t index : members) {
        if (finding.frames.size() >= kMaxListed) {
            break;
        }
        finding.frames.push_back(attempts_[index].firstFrame);
        listed.push_back(attempts_[index].connection);
    }
    return finding;
}

void SynUnansweredDetector::findScans(std::vector<bool>& used) {
    // Source address and target host -> the attempts, in connection order.
    std::map<std::pair<IpAddress, IpAddress>, std::vector<uint32_t>> bySourceAndHost;
    for (uint32_t index = 0; index < attempts_.size(); ++index) {
        bySourceAndHost[{attempts_[index].client.address, attempts_[index].server.address}].push_back(index);
    }
    for (const auto& [pair, members] : bySourceAndHost) {
        absl::flat_hash_set<uint16_t> ports;
        for (const uint32_t index : members) {
            ports.insert(attempts_[index].server.port);
        }
        if (ports.size() < kScanPorts) {
            continue;
        }
        size_t refused = 0;
        size_t answered = 0;
        for (const uint32_t index : members) {
            used[index] = true;
            refused += attempts_[index].resetByServer && !attempts_[index].synAcked ? 1 : 0;
            answered += attempts_[index].synAcked ? 1 : 0;
        }
        const Attempt& first = attempts_[members.front()];
        const Attempt& last = attempts_[members.back()];
        nlohmann::json::array_t listed;
        Finding finding = findingAbout(members, FindingKind::PortScan, Severity::Info, listed);
        finding.durationMs = toMs(last.lastTsNs - first.firstTsNs);
        finding.facts = AttemptFacts::scanOf(pair.second, pair.first, members.size());
        finding.evidence = {{"source", pair.first.toString()},
                            {"target", pair.second.toString()},
                            {"ports", ports.size()},
                            {"attempts", members.size()},
                            {"open", answered},
                            {"refused", refused},
                            {"unanswered", members.size() - answered - refused},
                            {"connections", std::move(listed)}};
        finding.summary = fmt::format(
            "{} probed {} of {} in {:.1f} s ({} open, {} refused, {} unanswered): a port scan; its probes are "
            "not counted as failed connections.",
            pair.first.toString(), plural(ports.size(), "port", "ports"), pair.second.toString(),
            static_cast<double>(last.lastTsNs - first.firstTsNs) / kNsPerS, answered, refused,
            members.size() - answered - refused);
        log().add(std::move(finding));
    }
}

void SynUnansweredDetector::findProbedHosts(std::vector<bool>& used) {
    std::map<IpAddress, std::vector<uint32_t>> byHost;
    for (uint32_t index = 0; index < attempts_.size(); ++index) {
        if (!used[index]) {
            byHost[attempts_[index].server.address].push_back(index);
        }
    }
    for (const auto& [host, members] : byHost) {
        absl::flat_hash_set<uint16_t> ports;
        absl::flat_hash_set<IpAddress> sources;
        bool answered = false;
        for (const uint32_t index : members) {
            ports.insert(attempts_[index].server.port);
            sources.insert(attempts_[index].client.address);
            answered = answered || attempts_[index].synAcked || attempts_[index].resetByServer;
        }
        if (ports.size() < kScanPorts || answered) {
            continue;
        }
        for (const uint32_t index : members) {
            used[index] = true;
        }
        nlohmann::json::array_t listed;
        Finding finding = findingAbout(members, FindingKind::PortScan, Severity::Info, listed);
        finding.facts = AttemptFacts::scanOf(host, std::nullopt, members.size());
        finding.evidence = {{"target", host.toString()},
                            {"ports", ports.size()},
                            {"sources", sources.size()},
                            {"attempts", members.size()},
                            {"connections", std::move(listed)}};
        finding.summary = fmt::format(
            "{} answered none of {} on {} from {}: a darknet or a host that drops everything, probed by "
            "scanners; its unanswered SYNs are not counted as failed connections.",
            host.toString(), plural(members.size(), "connection attempt", "connection attempts"),
            plural(ports.size(), "port", "ports"), plural(sources.size(), "source", "sources"));
        log().add(std::move(finding));
    }
}

void SynUnansweredDetector::findFloods(std::vector<bool>& used) {
    std::map<Endpoint, std::vector<uint32_t>> byServer;
    for (uint32_t index = 0; index < attempts_.size(); ++index) {
        if (!used[index]) {
            byServer[attempts_[index].server].push_back(index);
        }
    }
    for (const auto& [server, members] : byServer) {
        if (members.size() < kFloodAttempts) {
            continue;
        }
        absl::flat_hash_set<Endpoint> sources;
        absl::flat_hash_set<IpAddress> hosts;
        int64_t firstNs = INT64_MAX;
        int64_t lastNs = INT64_MIN;
        size_t halfOpen = 0;
        size_t syns = 0;
        for (const uint32_t index : members) {
            const Attempt& attempt = attempts_[index];
            sources.insert(attempt.client);
            hosts.insert(attempt.client.address);
            firstNs = std::min(firstNs, attempt.firstTsNs);
            lastNs = std::max(lastNs, attempt.lastTsNs);
            halfOpen += attempt.synAcked ? 1 : 0;
            syns += attempt.syns;
        }
        const double spanS = std::max(static_cast<double>(lastNs - firstNs) / kNsPerS, 1e-3);
        const double rate = static_cast<double>(members.size()) / spanS;
        if (sources.size() < kFloodSources || rate < kFloodRatePerS) {
            continue;
        }
        for (const uint32_t index : members) {
            used[index] = true;
        }
        nlohmann::json::array_t listed;
        Finding finding = findingAbout(members, FindingKind::SynFlood, Severity::Warning, listed);
        finding.tsNs = firstNs;
        finding.durationMs = toMs(lastNs - firstNs);
        const size_t unanswered = members.size() - halfOpen;
        finding.facts = AttemptFacts::toServer(server, members.size());
        finding.evidence = {{"server", server.toString()},
                            {"attempts", members.size()},
                            {"syns", syns},
                            {"source_hosts", hosts.size()},
                            {"source_endpoints", sources.size()},
                            {"unanswered", unanswered},
                            {"half_open", halfOpen},
                            {"duration_ms", finding.durationMs},
                            {"rate_per_s", std::round(rate * 10) / 10},
                            {"connections", std::move(listed)}};
        finding.summary = fmt::format(
            "{}: SYN flood: {} from {} ({} source ports) in {:.2f} s ({:.0f} a second), {} never answered and {} "
            "left half-open; if the server is the target, keep SYN cookies on (net.ipv4.tcp_syncookies=1), raise "
            "net.ipv4.tcp_max_syn_backlog and filter or rate-limit the sources upstream.",
            server.toString(), plural(members.size(), "connection attempt", "connection attempts"),
            plural(hosts.size(), "source address", "source addresses"), sources.size(), spanS, rate, unanswered,
            halfOpen);
        log().add(std::move(finding));
    }
}

void SynUnansweredDetector::findUnanswered(const std::vector<bool>& used) {
    // The attempts that waited: SYN retransmitted, never answered by a SYN-ACK.
    std::map<Endpoint, std::vector<uint32_t>> byServer;
    for (uint32_t index = 0; index < attempts_.size(); ++index) {
        const Attempt& attempt = attempts_[index];
        const bool retried = attempt.syns >= 2 && (attempt.lastSynTsNs - attempt.firstTsNs) /
                                                          static_cast<int64_t>(attempt.syns - 1) >=
                                                      kMinSynRetryNs;
        if (!used[index] && !attempt.synAcked && retried) {
            byServer[attempt.server].push_back(index);
        }
    }
    // Clients whose attempts to many servers went unanswered: one finding for each such client.
    std::map<IpAddress, std::vector<Endpoint>> serversOfClient;
    for (const auto& [server, members] : byServer) {
        absl::flat_hash_set<IpAddress> clients;
        for (const uint32_t index : members) {
            clients.insert(attempts_[index].client.address);
        }
        if (clients.size() == 1) {
            serversOfClient[attempts_[members.front()].client.address].push_back(server);
        }
    }
    absl::flat_hash_set<Endpoint> grouped;
    std::vector<std::vector<uint32_t>> findings;  // members of each finding, in order of first attempt
    std::vector<bool> byClient;
    for (const auto& [client, servers] : serversOfClient) {
        if (servers.size() <= kGroupByClientServers) {
            continue;
        }
        std::vector<uint32_t> members;
        for (const Endpoint& server : servers) {
            grouped.insert(server);
            const auto& more = byServer[server];
            members.insert(members.end(), more.begin(), more.end());
        }
        std::sort(members.begin(), members.end());
        findings.push_back(std::move(members));
        byClient.push_back(true);
    }
    for (const auto& [server, members] : byServer) {
        if (!grouped.contains(server)) {
            findings.push_back(members);
            byClient.push_back(false);
        }
    }
    std::vector<size_t> order(findings.size());
    for (size_t index = 0; index < order.size(); ++index) {
        order[index] = index;
    }
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return findings[a].front() < findings[b].front(); });
    for (const size_t index : order) {
        writeUnanswered(findings[index], byClient[index]);
    }
}

void SynUnansweredDetector::writeUnanswered(const std::vector<uint32_t>& members, bool byClient) {
    const Attempt& first = attempts_[members.front()];
    absl::flat_hash_set<IpAddress> clients;
    absl::flat_hash_set<Endpoint> servers;
    WaitTally waits;  // each attempt's, from its first SYN to its last packet
    size_t syns = 0;
    size_t refused = 0;
    int64_t longestNs = 0;
    int64_t firstNs = INT64_MAX;
    // One client trying many servers in vain is what peer-to-peer clients and crawlers do: context,
    // not the cause of an incident by itself.
    nlohmann::json::array_t listed;
    Finding finding =
        findingAbout(members, FindingKind::SynUnanswered, byClient ? Severity::Info : Severity::Warning, listed);
    for (const uint32_t index : members) {
        const Attempt& attempt = attempts_[index];
        clients.insert(attempt.client.address);
        servers.insert(attempt.server);
        waits.add(attempt.connection, attempt.firstTsNs, attempt.lastTsNs);
        syns += attempt.syns;
        refused += attempt.resetByServer ? 1 : 0;
        longestNs = std::max(longestNs, attempt.lastTsNs - attempt.firstTsNs);
        firstNs = std::min(firstNs, attempt.firstTsNs);
    }
    setImpact(finding, waits);
    const int64_t wallNs = coveredNs(finding.waitRanges);
    finding.tsNs = firstNs;
    finding.durationMs = toMs(wallNs);
    const std::string attempts = plural(members.size(), "connection attempt", "connection attempts");
    const std::string refusedText =
        refused > 0 ? fmt::format(" ({} refused by a RST only after retransmitting)", refused) : std::string();
    finding.facts = byClient ? AttemptFacts::fromClient(first.client.address, members.size())
                             : AttemptFacts::toServer(first.server, members.size());
    nlohmann::json::object_t evidence;
    if (byClient) {
        evidence.emplace("client", first.client.address.toString());
        evidence.emplace("servers", servers.size());
    } else {
        evidence.emplace("server", first.server.toString());
        evidence.emplace("clients", clients.size());
    }
    evidence.emplace("attempts", members.size());
    evidence.emplace("syns", syns);
    evidence.emplace("refused_after_retransmission", refused);
    evidence.emplace("waited_ms", finding.durationMs);
    evidence.emplace("longest_wait_ms", toMs(longestNs));
    evidence.emplace("connections", std::move(listed));
    finding.evidence = std::move(evidence);
    if (byClient) {
        finding.summary = fmt::format(
            "{}: {} to {} were never answered ({} sent{}); the client waited {:.1f} s in all, up to {:.1f} s for "
            "one: the peers are gone, unreachable or filtered; expected of a peer-to-peer or crawling client, a "
            "fault if these servers should answer.",
            first.client.address.toString(), attempts, plural(servers.size(), "server", "servers"),
            plural(syns, "SYN", "SYNs"), refusedText, toMs(wallNs) / 1000, toMs(longestNs) / 1000);
    } else {
        finding.summary = fmt::format(
            "{}: {} from {} got no SYN-ACK ({} sent{}); {} waited {:.1f} s in all, up to {:.1f} s for one: "
            "a firewall drops the SYNs, the host is down or the address is wrong; check the route and firewall "
            "rules to {} and that the service listens there.",
            first.server.toString(), attempts, plural(clients.size(), "client", "clients"),
            plural(syns, "SYN", "SYNs"), refusedText, clients.size() == 1 ? "the client" : "the clients",
            toMs(wallNs) / 1000, toMs(longestNs) / 1000, first.server.toString());
    }
    log().add(std::move(finding));
}

}  // namespace tcpscope
