#include "incident/incident_linking.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <string>

namespace tcpscope {

namespace {

// A listener's finding begins at its first delayed handshake; an effect on a connection that began up
// to a second before (a SYN's first retry comes after 1 s) is still of its story.
constexpr int64_t kWaitSlackNs = 1'000'000'000;

struct Subject {
    IncidentScope scope = IncidentScope::Connection;
    std::optional<Endpoint> server;
    std::optional<IpAddress> serverHost;
    PoolHolder holder = PoolHolder::Clients;
    std::optional<FindingKind> kind;  // Connection and Capture scopes

    bool operator==(const Subject&) const = default;
};

// The parties of a finding of no flow are text ("ip:port" or a host address): the connections give
// them back as typed endpoints and addresses.
class Parties {
public:
    explicit Parties(const ConnectionStore& connections) {
        // Named once per distinct endpoint and address: a capture has far fewer of them than connections.
        absl::flat_hash_set<Endpoint> servers;
        absl::flat_hash_set<IpAddress> hosts;
        for (size_t index = 0; index < connections.size(); ++index) {
            const Connection& connection = connections[index];
            if (servers.size() < kMaxNames) {
                servers.insert(connection.server);
            }
            if (hosts.size() < kMaxNames) {
                hosts.insert(connection.client.address);
                hosts.insert(connection.server.address);
            }
        }
        for (const Endpoint& server : servers) {
            servers_.try_emplace(server.toString(), server);
        }
        for (const IpAddress& host : hosts) {
            hosts_.try_emplace(host.toString(), host);
        }
    }

    [[nodiscard]] std::optional<Endpoint> endpoint(const std::string& text) const {
        const auto found = servers_.find(text);
        return found == servers_.end() ? std::nullopt : std::optional<Endpoint>(found->second);
    }
    [[nodiscard]] std::optional<IpAddress> host(const std::string& text) const {
        const auto found = hosts_.find(text);
        return found == hosts_.end() ? std::nullopt : std::optional<IpAddress>(found->second);
    }

private:
    // Bounds the names kept for a capture of very many hosts; a party beyond them stays unlinked.
    static constexpr size_t kMaxNames = 1 << 20;
    absl::flat_hash_map<std::string, Endpoint> servers_;
    absl::flat_hash_map<std::string, IpAddress> hosts_;
};

bool validConnection(const ConnectionStore& connections, uint32_t id) {
    return id != kNoConnection && id < connections.size();
}

// A connection with a finding of the Process scope, and the side that sent the data that waited.
struct SenderConnection {
    uint32_t connection = kNoConnection;
    std::optional<Side> sender;
};

// The endpoint that the process which sent on connection `id` accepts on: `id`'s server when it sent as
// the server; when it sent as the client, the server of a connection on which its host sent as the
// server while `id` was open (the proxy's front side); otherwise `id`'s server, the sender's peer.
Endpoint processOf(const ConnectionStore& connections, const std::vector<SenderConnection>& senders, uint32_t id,
                   std::optional<Side> sender, const SameHost& sameHost) {
    const Connection& connection = connections[id];
    if (sender != Side::Client) {
        return connection.server;
    }
    for (const SenderConnection& other : senders) {
        if (other.sender != Side::Server || other.connection == id) {
            continue;
        }
        const Connection& front = connections[other.connection];
        const bool oneHost = front.server.address == connection.client.address ||
                             (sameHost && sameHost(front.server.address, connection.client.address));
        if (oneHost && !(front.server == connection.server) && front.firstTsNs <= connection.lastTsNs &&
            connection.firstTsNs <= front.lastTsNs) {
            return front.server;
        }
    }
    return connection.server;
}

Subject ownSubject(const Finding& finding, const ConnectionStore& connections, const ConnectionGroups& groups,
                   const Parties& parties, const std::vector<SenderConnection>& senders, std::optional<Side> sender,
                   const SameHost& sameHost) {
    const IncidentLink& link = kindInfo(finding.kind).incident;
    Subject subject;
    subject.scope = link.scope;
    const bool hasConnection = validConnection(connections, finding.connection);
    switch (link.scope) {
        case IncidentScope::PortPool:
            if (finding.kind == FindingKind::TimeWaitChurn) {
                if (!finding.parties.server.empty()) {
                    subject.serverHost = parties.host(finding.parties.server);
                    subject.holder = PoolHolder::Server;
                } else if (const std::optional<IpAddress> host = parties.host(finding.parties.client)) {
                    subject.server = churnTarget(connections, groups, *host);
                }
            } else if (hasConnection) {
                const Connection& connection = connections[finding.connection];
                const bool serverHeldEarlier = validConnection(connections, connection.reusedFrom) &&
                                               connections[connection.reusedFrom].hasActiveCloser &&
                                               connections[connection.reusedFrom].activeCloser == Side::Server;
                if (serverHeldEarlier) {
                    subject.serverHost = connection.server.address;
                    subject.holder = PoolHolder::Server;
                } else {
                    subject.server = connection.server;
                }
            } else {
                subject.server = parties.endpoint(finding.parties.server);
            }
            break;
        case IncidentScope::Listener:
            subject.server = hasConnection ? std::optional<Endpoint>(connections[finding.connection].server)
                                           : parties.endpoint(finding.parties.server);
            break;
        case IncidentScope::Process:
            if (hasConnection) {
                subject.server = processOf(connections, senders, finding.connection, sender, sameHost);
            }
            break;
        case IncidentScope::Connection:
            subject.kind = finding.kind;
            if (hasConnection) {
                subject.server = connections[finding.connection].server;
            }
            break;
        case IncidentScope::Capture: subject.kind = finding.kind; break;
    }
    return subject;
}

// A listener's story in time: from its finding to the last packet of a connection to it whose SYN
// was sent again.
struct ListenerStory {
    Endpoint listener;
    int64_t startNs = 0;
    int64_t endNs = 0;
};

std::vector<ListenerStory> listenerStories(const std::vector<Finding>& findings, const std::vector<Subject>& subjects,
                                           const ConnectionStore& connections, const ConnectionGroups& groups) {
    std::vector<ListenerStory> stories;
    for (size_t index = 0; index < findings.size(); ++index) {
        const KindInfo& row = kindInfo(findings[index].kind);
        if (row.incident.scope != IncidentScope::Listener || row.incident.role != ChainRole::Cause ||
            !subjects[index].server) {
            continue;
        }
        stories.push_back({*subjects[index].server, findings[index].tsNs, findings[index].tsNs});
    }
    for (ListenerStory& story : stories) {
        for (const uint32_t id : groups.toServer(story.listener)) {
            const Connection& connection = connections[id];
            if (connection.synCount >= 2 && connection.firstTsNs >= story.startNs) {
                story.endNs = std::max(story.endNs, connection.lastTsNs);
            }
        }
    }
    return stories;
}

// The listener story `finding` joins as an effect, if any.
const ListenerStory* joinedListener(const Finding& finding, const Subject& own, const ConnectionStore& connections,
                                    const std::vector<ListenerStory>& stories) {
    for (const ListenerStory& story : stories) {
        bool concerns = false;
        int64_t atNs = finding.tsNs;
        if (validConnection(connections, finding.connection)) {
            const Connection& connection = connections[finding.connection];
            concerns = connection.server == story.listener;
            atNs = connection.firstTsNs;
        } else if (own.server) {
            concerns = *own.server == story.listener;
        } else if (own.serverHost) {
            concerns = *own.serverHost == story.listener.address;
        }
        if (concerns && atNs >= story.startNs - kWaitSlackNs && atNs <= story.endNs) {
            return &story;
        }
    }
    return nullptr;
}

}  // namespace

std::optional<Endpoint> churnTarget(const ConnectionStore& connections, const ConnectionGroups& groups,
                                    const IpAddress& host) {
    absl::flat_hash_map<Endpoint, uint64_t> closes;
    for (const uint32_t id : groups.fromClientHost(host)) {
        const Connection& connection = connections[id];
        if (connection.hasActiveCloser && connection.activeCloser == Side::Client) {
            ++closes[connection.server];
        }
    }
    std::optional<Endpoint> target;
    uint64_t most = 0;
    for (const auto& [server, count] : closes) {
        if (count > most || (count == most && target && server < *target)) {
            target = server;
            most = count;
        }
    }
    return target;
}

std::vector<LinkedFindings> linkFindings(const std::vector<Finding>& findings, const ConnectionStore& connections,
                                         const ConnectionGroups& groups, const WaitingSideFn& waitingSide,
                                         const SameHost& sameHost) {
    const Parties parties(connections);
    std::vector<SenderConnection> senders;
    std::vector<std::optional<Side>> senderOf(findings.size());
    for (size_t index = 0; index < findings.size(); ++index) {
        if (kindInfo(findings[index].kind).incident.scope == IncidentScope::Process &&
            validConnection(connections, findings[index].connection)) {
            senderOf[index] = waitingSide(static_cast<uint32_t>(index));
            senders.push_back({findings[index].connection, senderOf[index]});
        }
    }
    std::vector<Subject> subjects;
    subjects.reserve(findings.size());
    for (size_t index = 0; index < findings.size(); ++index) {
        subjects.push_back(
            ownSubject(findings[index], connections, groups, parties, senders, senderOf[index], sameHost));
    }
    const std::vector<ListenerStory> stories = listenerStories(findings, subjects, connections, groups);
    for (size_t index = 0; index < findings.size(); ++index) {
        const IncidentLink& link = kindInfo(findings[index].kind).incident;
        if (link.joins != IncidentScope::Listener) {
            continue;
        }
        if (const ListenerStory* story = joinedListener(findings[index], subjects[index], connections, stories)) {
            Subject joined;
            joined.scope = IncidentScope::Listener;
            joined.server = story->listener;
            subjects[index] = joined;
        }
    }

    std::vector<LinkedFindings> linked;
    std::vector<Subject> linkedSubjects;
    std::vector<uint32_t> qualityFindings;
    for (size_t index = 0; index < findings.size(); ++index) {
        if (findings[index].kind == FindingKind::CaptureQuality) {
            qualityFindings.push_back(static_cast<uint32_t>(index));
            continue;
        }
        const auto found = std::find(linkedSubjects.begin(), linkedSubjects.end(), subjects[index]);
        if (found == linkedSubjects.end()) {
            const Subject& subject = subjects[index];
            linkedSubjects.push_back(subject);
            linked.push_back({.scope = subject.scope,
                              .server = subject.server,
                              .serverHost = subject.serverHost,
                              .holder = subject.holder,
                              .kind = subject.kind.value_or(findings[index].kind),
                              .findings = {},
                              .caveats = {}});
            linked.back().findings.push_back(static_cast<uint32_t>(index));
        } else {
            linked[static_cast<size_t>(found - linkedSubjects.begin())].findings.push_back(
                static_cast<uint32_t>(index));
        }
    }
    for (LinkedFindings& story : linked) {
        std::stable_sort(story.findings.begin(), story.findings.end(),
                         [&](uint32_t a, uint32_t b) { return findings[a].tsNs < findings[b].tsNs; });
        story.caveats = qualityFindings;
    }
    if (linked.empty() && !qualityFindings.empty()) {
        linked.push_back({.scope = IncidentScope::Capture,
                          .server = std::nullopt,
                          .serverHost = std::nullopt,
                          .holder = PoolHolder::Clients,
                          .kind = FindingKind::CaptureQuality,
                          .findings = qualityFindings,
                          .caveats = {}});
    }
    return linked;
}

}  // namespace tcpscope
