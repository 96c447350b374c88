#include "incident/incident_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "finding/wording.hpp"
#include "incident/incident_fix.hpp"
#include "incident/incident_linking.hpp"
#include "incident/listener_figures.hpp"
#include "incident/port_pool_figures.hpp"
#include "present/process_label.hpp"

namespace tcpscope {

namespace {

constexpr double kNsPerMs = 1e6;
// Users waited long enough to notice and complain: an error.
constexpr double kUserVisibleMs = 1000;
// A connection that carried more packets than this from its client served many requests: one
// closed by the server now and then is keep-alive doing its work, not churn.
constexpr uint64_t kFewPacketsPerConnection = 32;
// Hosts named in an incident (a listener of a whole fleet of clients is named by its first ones).
constexpr size_t kMaxHosts = 16;

// What the stalls of a story's findings cost, from their measured waits.
struct StallCost {
    uint64_t requests = 0;
    uint32_t connections = 0;
    double connectionMs = 0;
    double p50Ms = 0;  // weighted by each finding's waits
    double p99Ms = 0;  // the largest of the findings'
    double maxMs = 0;
    double wallMs = 0;
    std::vector<uint32_t> firstFrames;                                // the first finding's evidence frames
    std::vector<std::pair<uint32_t, uint64_t>> requestsOfConnection;  // each finding's connection and waits
};

StallCost stallCost(const CaptureAnalysis& analysis, const std::vector<uint32_t>& findings) {
    StallCost cost;
    std::vector<WaitRange> ranges;
    std::vector<std::pair<double, uint64_t>> medians;
    Finding scratch;
    for (const uint32_t index : findings) {
        const Finding& finding = analysis.completeFindingButEvidence(index, scratch);
        const FindingImpact& impact = finding.impact;
        cost.requests += impact.delayedRequests;
        cost.requestsOfConnection.emplace_back(finding.connection, impact.delayedRequests);
        cost.connections += impact.connections;
        cost.connectionMs += impact.connectionMs;
        cost.p99Ms = std::max(cost.p99Ms, impact.p99Ms);
        cost.maxMs = std::max(cost.maxMs, impact.maxMs);
        if (impact.delayedRequests > 0) {
            medians.emplace_back(impact.p50Ms, impact.delayedRequests);
        }
        ranges.insert(ranges.end(), finding.waitRanges.begin(), finding.waitRanges.end());
        if (cost.firstFrames.empty()) {
            cost.firstFrames.assign(
                finding.frames.begin(),
                finding.frames.begin() + static_cast<std::ptrdiff_t>(std::min<size_t>(finding.frames.size(), 3)));
        }
    }
    std::sort(medians.begin(), medians.end());
    uint64_t seen = 0;
    for (const auto& [median, weight] : medians) {
        seen += weight;
        if (2 * seen >= cost.requests) {
            cost.p50Ms = median;
            break;
        }
    }
    cost.wallMs = static_cast<double>(coveredNs(mergeRanges(std::move(ranges)))) / kNsPerMs;
    return cost;
}

std::vector<ChainStep> chainOf(const FindingList& findings, const LinkedFindings& story) {
    std::vector<ChainStep> chain;
    for (const uint32_t index : story.findings) {
        const FindingKind kind = findings[index].kind;
        auto step = std::find_if(chain.begin(), chain.end(), [&](const ChainStep& s) { return s.kind == kind; });
        if (step == chain.end()) {
            const IncidentLink& link = kindInfo(kind).incident;
            // A finding that joined another scope's story is an effect there, whatever it is alone.
            const ChainRole role = link.scope == story.scope ? link.role : ChainRole::Effect;
            chain.push_back({kind, role, std::string(link.step), {}});
            step = chain.end() - 1;
        }
        step->findings.push_back(index);
    }
    std::stable_sort(chain.begin(), chain.end(), [](const ChainStep& a, const ChainStep& b) {
        return a.role == ChainRole::Cause && b.role != ChainRole::Cause;
    });
    return chain;
}

std::string seconds(double ms) {
    return ms >= 10'000 ? fmt::format("{:.1f} s", ms / 1000) : fmt::format("{:.2f} s", ms / 1000);
}

std::string waitText(double ms) {
    return ms >= 1000 ? seconds(ms) : fmt::format("{:.0f} ms", ms);
}

std::string listOf(const std::vector<IpAddress>& addresses) {
    std::string text;
    for (size_t index = 0; index < addresses.size(); ++index) {
        text += (index == 0 ? "" : index + 1 == addresses.size() ? " and " : ", ") + addresses[index].toString();
    }
    return text;
}

// Adds `host` to `hosts` (or a process to the processes) unless it is there or there are enough.
void addHost(std::vector<std::string>& hosts, const std::string& host) {
    if (hosts.size() < kMaxHosts && std::find(hosts.begin(), hosts.end(), host) == hosts.end()) {
        hosts.push_back(host);
    }
}

// The processes the incident's findings involve: those the capture names at the ends of their
// connections, else the traced processes whose writes the strace log tied to their stalls.
void addProcesses(Incident& incident, const CaptureAnalysis& analysis) {
    const ConnectionProcesses& processes = analysis.engine->processes();
    for (const uint32_t index : incident.findings) {
        const Finding& finding = analysis.findings[index];
        bool named = false;
        if (finding.connection != kNoConnection) {
            for (const Side side : {Side::Client, Side::Server}) {
                if (const ConnectionProcesses::End* end = processes.of(finding.connection, side); end && end->known()) {
                    addHost(incident.processes, processLabel(processes.process(end->first)));
                    named = true;
                }
            }
        }
        if (named) {
            continue;
        }
        for (const StraceVerdict& verdict : analysis.enrichments.of(finding.id).straceVerdicts) {
            if (verdict.verdict != StraceVerdictKind::NoTrace && verdict.pid > 0) {
                addHost(incident.processes, fmt::format("pid {} (traced)", verdict.pid));
            }
        }
    }
}

Severity severityOf(bool stopped, double wallMs, bool waited) {
    if (stopped || wallMs >= kUserVisibleMs) {
        return Severity::Error;
    }
    return waited || wallMs > 0 ? Severity::Warning : Severity::Info;
}

void describeClientPool(const CaptureAnalysis& analysis, const LinkedFindings& story, const PortPoolFigures& pool,
                        Incident& incident) {
    IncidentImpact& impact = incident.impact;
    impact.connections = pool.connections;
    impact.portRange = pool.range;
    impact.timeWaitS = pool.timeWaitS;
    impact.rateSustainablePerS = pool.rateSustainablePerS;
    impact.rateAchievedPerS = pool.rateAchievedPerS;
    for (const uint32_t index : story.findings) {
        const std::optional<FailedConnects>& failed =
            analysis.enrichments.of(analysis.findings[index].id).failedConnects;
        if (failed) {
            impact.connectFailures = impact.connectFailures.value_or(0) + failed->count;
            impact.connectErrno = "EADDRNOTAVAIL";
            incident.events.push_back(
                {failed->firstTsNs, "the first connect() failing with EADDRNOTAVAIL: no free port", {}});
        }
    }
    for (const IpAddress& client : pool.clients) {
        addHost(incident.hosts, client.toString());
    }
    const std::string server = story.server->toString();
    addHost(incident.hosts, server);
    const std::string clients = pool.clients.size() == 1
                                    ? "Client " + pool.clients.front().toString()
                                    : fmt::format("{} clients ({})", pool.clients.size(), listOf(pool.clients));
    incident.events.push_back({pool.firstSynNs, "the first connection", {pool.firstFrame}});
    bool stopped = impact.connectFailures.has_value();
    if (pool.fixedSourcePort) {
        incident.title = fmt::format(
            "{} binds source port {} toward {}: {} connections on one port collide with its "
            "TIME_WAIT",
            clients, *pool.fixedSourcePort, server, groupedDigits(pool.connections));
    } else if (pool.pause) {
        const double pauseMs = static_cast<double>(pool.pause->endNs - pool.pause->startNs) / kNsPerMs;
        impact.pauseMs = pauseMs;
        impact.connectionsBeforeStop = pool.connectionsBeforeStop;
        impact.wallMs = pauseMs;
        stopped = true;
        incident.title = fmt::format("{} ran out of ports toward {}: {} connections, then a {} pause", clients, server,
                                     groupedDigits(pool.connectionsBeforeStop), seconds(pauseMs));
        incident.events.push_back({pool.pause->startNs,
                                   fmt::format("the range full: the last new connection before the pause ({} "
                                               "connections)",
                                               groupedDigits(pool.connectionsBeforeStop)),
                                   {pool.pause->lastFrameBefore}});
        incident.events.push_back({pool.pause->endNs,
                                   "the first ports back from TIME_WAIT: new connections again",
                                   {pool.pause->firstFrameAfter}});
    } else if (pool.endsOnFullRange) {
        impact.connectionsBeforeStop = pool.connectionsBeforeStop;
        stopped = true;
        incident.title =
            fmt::format("{} ran out of ports toward {}: {} connections, every port of {}-{}, then none", clients,
                        server, groupedDigits(pool.connectionsBeforeStop), pool.range.low, pool.range.high);
        incident.events.push_back(
            {pool.lastSynNs, "the last connection: every port of the range used, none after", {pool.lastFrame}});
    } else {
        incident.title = fmt::format(
            "{} {} {} connections first toward {}: each holds its port {:g} s in "
            "TIME_WAIT",
            clients, pool.clients.size() == 1 ? "closes" : "close", groupedDigits(pool.clientClosedFirst), server,
            pool.timeWaitS);
    }
    const StallCost cost = stallCost(analysis, story.findings);
    if (!impact.wallMs && cost.wallMs > 0) {
        impact.wallMs = cost.wallMs;
        impact.requestsDelayed = cost.requests;
        impact.latencyMaxMs = cost.maxMs;
    }
    incident.severity = severityOf(stopped, impact.wallMs.value_or(0), cost.requests > 0);
}

// The connections the server closed first toward `host`'s listeners, and the SYNs that came back on
// a port it still held; and whether they carried few packets each (churn, not keep-alive).
struct ServerHeld {
    uint64_t closedFirst = 0;
    uint64_t reusedTuples = 0;
    bool fewPacketsEach = false;
    std::optional<uint16_t> fixedSourcePort;  // every reuse (two or more) came from this one client port
    std::optional<Endpoint> reusingClient;    // the client endpoint of the first reuse, and its server
    std::optional<Endpoint> reusedServer;
};

ServerHeld measureServerHeld(const ConnectionStore& connections, const ConnectionGroups& groups,
                             const IpAddress& host) {
    ServerHeld held;
    std::vector<uint64_t> clientPackets;
    std::set<uint16_t> reusedPorts;
    for (const uint32_t id : groups.toServerHost(host)) {
        const Connection& connection = connections[id];
        if (connection.hasActiveCloser && connection.activeCloser == Side::Server) {
            ++held.closedFirst;
            clientPackets.push_back(connection.from(Side::Client).packets);
        }
        if (connection.reusedFrom == kNoConnection || connection.reusedFrom >= connections.size()) {
            continue;
        }
        const Connection& earlier = connections[connection.reusedFrom];
        if (!earlier.hasActiveCloser || earlier.activeCloser != Side::Server) {
            continue;
        }
        if (held.reusedTuples == 0) {
            held.reusingClient = connection.client;
            held.reusedServer = connection.server;
        }
        ++held.reusedTuples;
        reusedPorts.insert(connection.client.port);
    }
    if (held.reusedTuples >= 2 && reusedPorts.size() == 1) {
        held.fixedSourcePort = *reusedPorts.begin();
    }
    if (!clientPackets.empty()) {
        const auto middle = clientPackets.begin() + static_cast<std::ptrdiff_t>(clientPackets.size() / 2);
        std::nth_element(clientPackets.begin(), middle, clientPackets.end());
        held.fewPacketsEach = *middle <= kFewPacketsPerConnection;
    }
    return held;
}

void describeListener(const CaptureAnalysis& analysis, const LinkedFindings& story, const ListenerFigures& listener,
                      Incident& incident) {
    IncidentImpact& impact = incident.impact;
    const std::string endpoint = story.server->toString();
    impact.connections = listener.connections;
    impact.requestsDelayed = listener.handshakesDelayed;
    impact.latencyP50Ms = listener.handshakeP50Ms;
    impact.latencyP99Ms = listener.handshakeP99Ms;
    impact.latencyMaxMs = listener.handshakeMaxMs;
    impact.synsDropped = listener.synsDropped;
    for (const SynRetry& retry : listener.retries) {
        impact.synRetryOffsetsS.push_back(retry.medianS);
    }
    impact.connectionsAnswered = listener.connectionsAnswered;
    impact.rateAchievedPerS = listener.rateAnsweredPerS;
    impact.wallMs = listener.handshakeWallMs;
    addHost(incident.hosts, endpoint);
    for (const IpAddress& client : listener.clients) {
        addHost(incident.hosts, client.toString());
    }
    if (listener.synsDropped > 0) {
        incident.title = fmt::format("Listener {} drops SYNs: {} dropped, clients waited up to {}", endpoint,
                                     groupedDigits(listener.synsDropped), seconds(listener.handshakeMaxMs));
        incident.events.push_back(
            {listener.firstDroppedNs, "the first SYN that the full queue dropped", {listener.firstDroppedFrame}});
        incident.events.push_back({listener.lastDelayedAnswerNs, "the last delayed handshake answered", {}});
    } else {
        incident.title = fmt::format("{} at {}", kindInfo(story.kind).title, endpoint);
    }
    const StallCost cost = stallCost(analysis, story.findings);
    incident.severity =
        severityOf(listener.synsDropped > 0, std::max(impact.wallMs.value_or(0), cost.wallMs), cost.requests > 0);
}

void describeStalls(const CaptureAnalysis& analysis, const LinkedFindings& story, Incident& incident) {
    const ConnectionStore& connections = analysis.engine->connections();
    const StallCost cost = stallCost(analysis, story.findings);
    IncidentImpact& impact = incident.impact;
    impact.requestsDelayed = cost.requests;
    impact.latencyP50Ms = cost.p50Ms;
    impact.latencyP99Ms = cost.p99Ms;
    impact.latencyMaxMs = cost.maxMs;
    if (cost.requests > 0) {
        impact.latencyAddedMs = cost.connectionMs / static_cast<double>(cost.requests);
    }
    impact.wallMs = cost.wallMs;
    std::set<uint32_t> ids;
    // A proxy's requests on the connections it accepts, and on those it opens onward.
    uint64_t acceptedRequests = 0;
    uint64_t onwardRequests = 0;
    for (const auto& [id, requests] : cost.requestsOfConnection) {
        if (id == kNoConnection || id >= connections.size()) {
            continue;
        }
        ids.insert(id);
        const Connection& connection = connections[id];
        if (story.server && connection.server == *story.server) {
            acceptedRequests += requests;
        } else if (story.server && connection.client.address == story.server->address) {
            onwardRequests += requests;
        }
        addHost(incident.hosts, connection.client.address.toString());
        addHost(incident.hosts, connection.server.toString());
    }
    const bool bothSides = acceptedRequests > 0 && onwardRequests > 0;
    impact.connections = ids.size();
    const std::string endpoint = story.server ? story.server->toString() : std::string("the capture");
    const KindInfo& row = kindInfo(story.kind);
    if (story.scope == IncidentScope::Process) {
        const std::string added = waitText(impact.latencyAddedMs.value_or(0));
        incident.title = bothSides
                             ? fmt::format("Proxy {} holds its small writes: {} requests {} slower on each side",
                                           endpoint, groupedDigits(std::max(acceptedRequests, onwardRequests)), added)
                             : fmt::format("Small writes held on the connections to {}: {} requests {} slower",
                                           endpoint, groupedDigits(cost.requests), added);
    } else {
        incident.title = fmt::format("{} toward {}: {} over {}, up to {} each", row.title, endpoint,
                                     plural(cost.requests, "wait", "waits"),
                                     plural(ids.size(), "connection", "connections"), waitText(cost.maxMs));
    }
    if (!story.findings.empty()) {
        incident.events.push_back(
            {analysis.findings[story.findings.front()].tsNs, "the first stall", cost.firstFrames});
    }
    incident.severity = severityOf(false, cost.wallMs, cost.requests > 0);
}

void describeCapture(const CaptureAnalysis& analysis, const LinkedFindings& story, Incident& incident) {
    const StallCost cost = stallCost(analysis, story.findings);
    incident.title =
        fmt::format("{}: {}", kindInfo(story.kind).title, plural(story.findings.size(), "finding", "findings"));
    Severity worst = Severity::Info;
    for (const uint32_t index : story.findings) {
        worst = std::min(worst, analysis.findings[index].severity);
    }
    incident.severity = std::min(worst, severityOf(false, cost.wallMs, cost.requests > 0));
    if (cost.wallMs > 0) {
        incident.impact.wallMs = cost.wallMs;
    }
}

// Whether the story is one a person needs told: anything that cost or failed, or a pattern of
// short connections. Info findings of connections that carried many requests each are not.
bool worthAnIncident(const CaptureAnalysis& analysis, const LinkedFindings& story, const Incident& incident,
                     const ServerHeld* held) {
    if (incident.severity != Severity::Info) {
        return true;
    }
    for (const uint32_t index : story.findings) {
        if (analysis.findings[index].severity != Severity::Info) {
            return true;
        }
    }
    return held == nullptr || held->fewPacketsEach;
}

int64_t incidentStartNs(const Incident& incident, const FindingList& findings) {
    return incident.findings.empty() ? 0 : findings[incident.findings.front()].tsNs;
}

}  // namespace

std::vector<Incident> buildIncidents(const CaptureAnalysis& analysis, const DetectorOptions& options,
                                     const SameHost& sameHost) {
    std::vector<Incident> incidents;
    if (!analysis.engine) {
        return incidents;
    }
    const ConnectionStore& connections = analysis.engine->connections();
    const auto waitingSide = [&analysis](uint32_t index) {
        Finding described;
        return analysis.completeFindingButEvidence(index, described).waitingSide;
    };
    const ConnectionGroups groups(connections);
    for (const LinkedFindings& story : linkFindings(analysis.findings, connections, groups, waitingSide, sameHost)) {
        Incident incident;
        incident.scope = story.scope;
        incident.findings = story.findings;
        incident.caveats = story.caveats;
        incident.chain = chainOf(analysis.findings, story);
        std::optional<PortPoolFigures> pool;
        std::optional<ListenerFigures> listener;
        std::optional<ServerHeld> held;
        switch (story.scope) {
            case IncidentScope::PortPool:
                if (story.holder == PoolHolder::Server && story.serverHost) {
                    held = measureServerHeld(connections, groups, *story.serverHost);
                    incident.subject = story.serverHost->toString();
                    incident.impact.connections = held->closedFirst;
                    addHost(incident.hosts, incident.subject);
                    if (held->fixedSourcePort) {
                        incident.title = fmt::format(
                            "Client {} binds source port {} toward {}: {} connections on one port met the server's "
                            "TIME_WAIT",
                            held->reusingClient->address.toString(), *held->fixedSourcePort,
                            held->reusedServer->toString(), groupedDigits(held->reusedTuples + 1));
                    } else {
                        incident.title = fmt::format(
                            "Server {} closes {} connections first: {} SYNs came back on a port it held in TIME_WAIT",
                            incident.subject, groupedDigits(held->closedFirst), groupedDigits(held->reusedTuples));
                    }
                    const StallCost cost = stallCost(analysis, story.findings);
                    incident.severity = severityOf(false, cost.wallMs, cost.requests > 0);
                    if (cost.wallMs > 0) {
                        incident.impact.wallMs = cost.wallMs;
                    }
                } else if (story.server) {
                    pool = measurePortPool(connections, groups, *story.server, options);
                    incident.subject = story.server->toString();
                    describeClientPool(analysis, story, *pool, incident);
                } else {
                    describeCapture(analysis, story, incident);
                }
                break;
            case IncidentScope::Listener:
                if (story.server) {
                    listener = measureListener(connections, groups, *story.server);
                    incident.subject = story.server->toString();
                    describeListener(analysis, story, *listener, incident);
                } else {
                    describeCapture(analysis, story, incident);
                }
                break;
            case IncidentScope::Process:
            case IncidentScope::Connection:
                incident.subject = story.server ? story.server->toString() : std::string();
                describeStalls(analysis, story, incident);
                break;
            case IncidentScope::Capture: describeCapture(analysis, story, incident); break;
        }
        std::optional<uint16_t> fixedSourcePort;
        if (pool) {
            fixedSourcePort = pool->fixedSourcePort;
        } else if (held) {
            fixedSourcePort = held->fixedSourcePort;
        }
        incident.fix = fixFor({.story = story,
                               .pool = pool ? &*pool : nullptr,
                               .listener = listener ? &*listener : nullptr,
                               .fixedSourcePort = fixedSourcePort,
                               .options = options});
        std::sort(incident.events.begin(), incident.events.end(),
                  [](const IncidentEvent& a, const IncidentEvent& b) { return a.tsNs < b.tsNs; });
        addProcesses(incident, analysis);
        if (worthAnIncident(analysis, story, incident, held ? &*held : nullptr)) {
            incidents.push_back(std::move(incident));
        }
    }
    std::stable_sort(incidents.begin(), incidents.end(), [&](const Incident& a, const Incident& b) {
        if (a.severity != b.severity) {
            return a.severity < b.severity;
        }
        const double aWall = a.impact.wallMs.value_or(0);
        const double bWall = b.impact.wallMs.value_or(0);
        if (aWall != bWall) {
            return aWall > bWall;
        }
        return incidentStartNs(a, analysis.findings) < incidentStartNs(b, analysis.findings);
    });
    for (size_t index = 0; index < incidents.size(); ++index) {
        incidents[index].id = static_cast<uint32_t>(index);
    }
    return incidents;
}

}  // namespace tcpscope
