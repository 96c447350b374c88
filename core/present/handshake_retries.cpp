#include "present/handshake_retries.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "decode/decoded_packet.hpp"
#include "finding/wording.hpp"
#include "present/value_format.hpp"
#include "series/connection_packets.hpp"

namespace tcpscope {

namespace {

// Packets of a connection read for its handshake at most: a SYN retried this often never ends.
constexpr size_t kMaxHandshakePackets = 64;

bool isSyn(const IndexedPacket& packet) {
    return (packet.tcpFlags & tcpflag::kSyn) != 0 && (packet.tcpFlags & tcpflag::kAck) == 0;
}

bool isSynAck(const IndexedPacket& packet) {
    return (packet.tcpFlags & tcpflag::kSyn) != 0 && (packet.tcpFlags & tcpflag::kAck) != 0;
}

// The handshake of `connection`: its client's SYNs and its server's SYN-ACKs until the server's
// first packet without SYN (it took the connection), or nullopt if no SYN of the client was seen.
std::optional<RetriedHandshake> handshakeOf(const PacketIndex& packets, const Connection& connection,
                                            TimeOrigin origin) {
    RetriedHandshake handshake;
    handshake.connection = connection.id;
    handshake.client = connection.client.toString();
    bool sawSyn = false;
    size_t visited = 0;
    visitPacketsOf(packets, connection, [&](size_t position) {
        const IndexedPacket packet = packets.at(position);
        if (!packet.fromServer && isSyn(packet)) {
            if (sawSyn) {
                handshake.retriedSynsNs.push_back(packet.tsNs);
            } else {
                handshake.firstSynNs = packet.tsNs;
                sawSyn = true;
            }
        } else if (packet.fromServer && isSynAck(packet)) {
            handshake.synAcksNs.push_back(packet.tsNs);
        } else if (packet.fromServer) {
            return false;  // the server took the connection: the handshake is over
        }
        return ++visited < kMaxHandshakePackets;
    });
    if (!sawSyn) {
        return std::nullopt;
    }
    const int64_t lastSynNs = handshake.retriedSynsNs.empty() ? handshake.firstSynNs : handshake.retriedSynsNs.back();
    const auto answer = std::lower_bound(handshake.synAcksNs.begin(), handshake.synAcksNs.end(), lastSynNs);
    if (answer != handshake.synAcksNs.end()) {
        handshake.answerNs = *answer;
    }
    handshake.waitNs = handshake.answerNs.value_or(lastSynNs) - handshake.firstSynNs;
    handshake.label = retriedHandshakeLabel(handshake, origin);
    return handshake;
}

}  // namespace

std::string utcTimeOfDay(TimeOrigin origin, int64_t tsNs) {
    // "2026-11-21 03:29:51.934567" -> "03:29:51.934"
    const std::string stamp = utcTimestamp(origin, tsNs);
    return stamp.substr(stamp.find(' ') + 1, 12);
}

std::string retriedHandshakeLabel(const RetriedHandshake& handshake, TimeOrigin origin) {
    const std::string retried = handshake.retriedSynsNs.empty()
                                    ? std::string("SYN not retried")
                                    : fmt::format("SYN retried {}x", handshake.retriedSynsNs.size());
    const std::string answer = handshake.answerNs
                                   ? fmt::format("answered at {} UTC", utcTimeOfDay(origin, *handshake.answerNs))
                                   : "never answered";
    return fmt::format("+{}: {}, {}", reportDuration(static_cast<double>(handshake.waitNs) / 1e6), retried, answer);
}

std::string handshakesLeftOutText(const HandshakeRetries& retries) {
    return retries.leftOut == 0
               ? std::string()
               : fmt::format("{} not drawn: these rows are the longest waits",
                             plural(retries.leftOut, "more delayed handshake", "more delayed handshakes"));
}

std::string handshakeRetriesNote(const HandshakeRetries& retries) {
    std::string note = fmt::format(
        "one row per delayed handshake ({}), in the order the clients began: its first SYN, each SYN the client "
        "sent again on its backoff ({} in all: the listener dropped them), the SYN-ACK that finally answered, "
        "and the wait between them as a bar",
        retries.rows.size(), retries.retriedSyns);
    if (retries.leftOut > 0) {
        note += "; " + handshakesLeftOutText(retries);
    }
    return note + ".";
}

HandshakeRetries handshakeRetries(const CaptureAnalysis& analysis, std::span<const size_t> findings, size_t maxRows) {
    HandshakeRetries retries;
    const PacketIndex& packets = analysis.engine->packets();
    const ConnectionStore& connections = analysis.engine->connections();
    // The connections the spans name, with their waits: the longest are drawn when not all fit.
    std::map<uint32_t, int64_t> waitOf;
    for (const size_t index : findings) {
        const Finding& finding = analysis.findings[index];
        // Handshakes the detector counted but did not list (it lists the first 1,000).
        retries.leftOut += finding.totalSpans > finding.spans.size() ? finding.totalSpans - finding.spans.size() : 0;
        for (const FindingSpan& span : finding.spans) {
            if (span.connection < connections.size() && connections.holds(span.connection)) {
                int64_t& wait = waitOf[span.connection];
                wait = std::max(wait, span.endNs - span.startNs);
            }
        }
    }
    std::vector<std::pair<uint32_t, int64_t>> longest(waitOf.begin(), waitOf.end());
    std::stable_sort(longest.begin(), longest.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (longest.size() > maxRows) {
        retries.leftOut += longest.size() - maxRows;
        longest.resize(maxRows);
    }
    std::vector<RetriedHandshake> rows;
    for (const auto& entry : longest) {
        if (std::optional<RetriedHandshake> handshake =
                handshakeOf(packets, connections[entry.first], analysis.engine->timeOrigin())) {
            rows.push_back(std::move(*handshake));
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const RetriedHandshake& a, const RetriedHandshake& b) {
        return a.firstSynNs != b.firstSynNs ? a.firstSynNs < b.firstSynNs : a.connection < b.connection;
    });
    retries.startNs = rows.empty() ? 0 : rows.front().firstSynNs;
    for (const RetriedHandshake& row : rows) {
        retries.retriedSyns += row.retriedSynsNs.size();
        retries.endNs = std::max({retries.endNs, row.firstSynNs + row.waitNs,
                                  row.synAcksNs.empty() ? row.firstSynNs : row.synAcksNs.back()});
    }
    retries.rows = std::move(rows);
    return retries;
}

}  // namespace tcpscope
