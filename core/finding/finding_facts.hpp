#pragma once
#include <cstdint>
#include <optional>
#include <variant>

#include "decode/ip_address.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// time_wait_churn: the host that closes first, and how much of TIME_WAIT it holds.
struct ChurnFacts {
    IpAddress host;
    Side role = Side::Client;    ///< the role in which it closes first
    uint64_t activeCloses = 0;   ///< connections it closed first
    uint64_t peakTimeWait = 0;   ///< the most of them in TIME_WAIT at once
};

/// port_reuse that cost nothing (the server accepted the reuses; one finding gathers those of a
/// client and a server): how many connections reused a 4-tuple.
struct AcceptedReuseFacts {
    uint64_t reuses = 0;
};

/// syn_unanswered, syn_flood, port_scan: the connection attempts, and whom they name.
struct AttemptFacts {
    std::optional<IpAddress> source;  ///< the one client (syn_unanswered toward many servers), the scanner (port_scan)
    std::optional<Endpoint> server;   ///< the one server endpoint (syn_unanswered, syn_flood)
    std::optional<IpAddress> target;  ///< port_scan: the host probed
    uint64_t attempts = 0;

    /// Attempts toward one server endpoint (syn_unanswered, syn_flood).
    static AttemptFacts toServer(const Endpoint& server, uint64_t attempts) {
        AttemptFacts facts;
        facts.server = server;
        facts.attempts = attempts;
        return facts;
    }
    /// Attempts of one client toward many servers (syn_unanswered).
    static AttemptFacts fromClient(const IpAddress& client, uint64_t attempts) {
        AttemptFacts facts;
        facts.source = client;
        facts.attempts = attempts;
        return facts;
    }
    /// Probes of a host's ports (port_scan), by one source or (nullopt) by many.
    static AttemptFacts scanOf(const IpAddress& target, std::optional<IpAddress> source, uint64_t attempts) {
        AttemptFacts facts;
        facts.target = target;
        facts.source = source;
        facts.attempts = attempts;
        return facts;
    }
};

/// What a finding's detector says of it, typed, besides its impact and spans: whom a finding of no
/// flow names and what a finding that made nothing wait counted. The reports word these; the
/// evidence says the same for the JSON.
using FindingFacts = std::variant<std::monostate, ChurnFacts, AcceptedReuseFacts, AttemptFacts>;

}  // namespace tcpscope
