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
    template <typename H>
    friend H AbslHashValue(H hash, const Subject& subject) {
        // This abseil hashes no std::optional: whether each is set, and its value if it is.
        hash = H::combine(std::move(hash), subject.scope, subject.holder, subject.server.has_value(),
                          subject.serverHost.has_value(), subject.kind.has_value());
        if (subject.server) {
            hash = H::combine(std::move(hash), *subject.server);
        }
        if (subject.serverHost) {
            hash = H::combine(std::move(hash), *subject.serverHost);
        }
        if (subject.kind) {
            hash = H::combine(std::move(hash), *subject.kind);
        }
        return hash;
    }
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

// The connections of Process-scope findings whose data the server sent, by that server's address,
// each list in finding order: where processOf looks for a proxy's front side without going through
// every finding for every finding (800,000 findings at W1 100 M).
class ServerSenders {
public:
    ServerSenders(const ConnectionStore& connections, const std::vector<SenderConnection>& senders) {
        for (size_t order = 0; order < senders.size(); ++order) {
            if (senders[order].sender != Side::Server) {
                continue;
            }
            const IpAddress& address = connections[senders[order].connection].server.address;
            const auto [slot, isNew] = bucketOf_.try_emplace(address, buckets_.size());
            if (isNew) {
                buckets_.push_back({address, {}});
            }
            buckets_[slot->second].senders.push_back({order, senders[order].connection});
        }
    }

    // The server of the first connection, in finding order, other than `id`, on which a host that is
    // `id`'s client (`sameHost`) sent as the server, to another server than `id`'s, while `id` was open.
    [[nodiscard]] std::optional<Endpoint> frontOf(const ConnectionStore& connections, uint32_t id,
                                                  const SameHost& sameHost) const {
        const Connection& connection = connections[id];
        std::optional<Endpoint> front;
        size_t frontOrder = SIZE_MAX;
        for (const Bucket& bucket : buckets_) {
            if (!(bucket.address == connection.client.address) &&
                !(sameHost && sameHost(bucket.address, connection.client.address))) {
                continue;
            }
            for (const Sender& sender : bucket.senders) {
                if (sender.order > frontOrder) {
                    break;
                }
                const Connection& other = connections[sender.connection];
                if (sender.connection != id && !(other.server == connection.server) &&
                    other.firstTsNs <= connection.lastTsNs && connection.firstTsNs <= other.lastTsNs) {
                    front = other.server;
                    frontOrder = sender.order;
                    break;
                }
            }
        }
        return front;
    }

private:
    struct Sender {
        size_t order = 0;  // in the findings' order
        uint32_t connection = kNoConnection;
    };
    struct Bucket {
        IpAddress address;
        std::vector<Sender> senders;
    };
    absl::flat_hash_map<IpAddress, size_t> bucketOf_;
    std::vector<Bucket> buckets_;
};

// The endpoint that the process which sent on connection `id` accepts on: `id`'s server when it sent as
// the server; when it sent as the client, the server of a connection on which its host sent as the
// server while `id` was open (the proxy's front side); otherwise `id`'s server, the sender's peer.
Endpoint processOf(const ConnectionStore& connections, const ServerSenders& servers, uint32_t id,
                   std::optional<Side> sender, const SameHost& sameHost) {
    const Connection& connection = connections[id];
    if (sender != Side::Client) {
        return connection.server;
    }
    return servers.frontOf(connections, id, sameHost).value_or(connection.server);
}

Subject ownSubject(const Finding& finding, const ConnectionStore& connections, const ConnectionGroups& groups,
                   const Parties& parties, const ServerSenders& servers, std::optional<Side> sender,
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
                subject.server = processOf(connections, servers, finding.connection, sender, sameHost);
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

std::vector<ListenerStory> listenerStories(const FindingList& findings, const std::vector<Subject>& subjects,
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

std::vector<LinkedFindings> linkFindings(const FindingList& findings, const ConnectionStore& connections,
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
    const ServerSenders servers(connections, senders);
    std::vector<Subject> subjects;
    subjects.reserve(findings.size());
    for (size_t index = 0; index < findings.size(); ++index) {
        subjects.push_back(
            ownSubject(findings[index], connections, groups, parties, servers, senderOf[index], sameHost));
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
    absl::flat_hash_map<Subject, size_t> linkedOf;  // a subject's place in `linked`
    std::vector<uint32_t> qualityFindings;
    for (size_t index = 0; index < findings.size(); ++index) {
        if (findings[index].kind == FindingKind::CaptureQuality) {
            qualityFindings.push_back(static_cast<uint32_t>(index));
            continue;
        }
        const auto [found, isNew] = linkedOf.try_emplace(subjects[index], linked.size());
        if (isNew) {
            const Subject& subject = subjects[index];
            linked.push_back({.scope = subject.scope,
                              .server = subject.server,
                              .serverHost = subject.serverHost,
                              .holder = subject.holder,
                              .kind = subject.kind.value_or(findings[index].kind),
                              .findings = {},
                              .caveats = {}});
            linked.back().findings.push_back(static_cast<uint32_t>(index));
        } else {
            linked[found->second].findings.push_back(static_cast<uint32_t>(index));
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
