#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "decode/ip_address.hpp"
#include "finding/finding.hpp"
#include "finding/finding_list.hpp"
#include "finding/kind_info.hpp"
#include "incident/connection_groups.hpp"
#include "tcp/connection.hpp"
#include "tcp/proxy_pair.hpp"

namespace tcpscope {

/// Whose TIME_WAIT a port pool's story is about.
enum class PoolHolder : uint8_t {
    Clients,  ///< the clients closed first: their ports toward one server fill up
    Server,   ///< the server closed first: clients that come back meet its TIME_WAIT
};

/// The findings of one story, before its figures are measured: one scope, one subject.
struct LinkedFindings {
    IncidentScope scope = IncidentScope::Connection;
    /// The subject: the server endpoint of a port pool of clients, a listener, a group of connection
    /// stalls, or the listening endpoint of a proxy; unset for a server's own TIME_WAIT (serverHost) and
    /// the capture's findings.
    std::optional<Endpoint> server;
    std::optional<IpAddress> serverHost;  ///< a port pool held by a server that closes first
    PoolHolder holder = PoolHolder::Clients;
    FindingKind kind = FindingKind::DelayedAckStall;  ///< Connection and Capture scopes: the one kind of the group
    std::vector<uint32_t> findings;                   ///< indices into the findings, in time order
    std::vector<uint32_t> caveats;                    ///< capture_quality findings that bear on it
};

/// Links `findings` into stories by the table of kinds (KindInfo::incident): findings of one scope and
/// one subject are one story; a finding whose kind joins another scope (IncidentLink::joins) goes with a
/// cause of that scope and subject in its time; capture_quality is a caveat of the others, a story of its
/// own only when nothing else is. Reads of each finding only what it has from its making (kind,
/// connection, time, parties), and the connections.
///
/// Subjects: PortPool, the server endpoint the clients' connections go to (several client hosts toward
/// one server are one story), or the host of a server that closes first; Process, one proxy, named by
/// the endpoint it accepts on: a connection on which it sent as the server, and the connections it sent
/// on as the client from that host while one of those was open;
/// Listener, the listening endpoint; Connection, the kind and the server endpoint; Capture, the kind.
/// `waitingSide` gives the side whose data waited in finding `index` (Finding::waitingSide, which a finding
/// described only when written has once described): a proxy sends on the connections it accepts as their
/// server and on the ones it opens onward as their client. `sameHost`, when given, says which two
/// addresses are one host (capture points: a proxy that listens on one address and connects onward from
/// another); by default only equal addresses are.
using WaitingSideFn = std::function<std::optional<Side>(uint32_t index)>;
std::vector<LinkedFindings> linkFindings(const FindingList& findings, const ConnectionStore& connections,
                                         const ConnectionGroups& groups, const WaitingSideFn& waitingSide,
                                         const SameHost& sameHost = {});

/// The server endpoint most of the connections that `host` closed first went to, if it closed any.
std::optional<Endpoint> churnTarget(const ConnectionStore& connections, const ConnectionGroups& groups,
                                    const IpAddress& host);

}  // namespace tcpscope
