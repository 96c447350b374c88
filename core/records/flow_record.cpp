#include "records/flow_record.hpp"

#include <cmath>
#include <vector>

#include "present/value_format.hpp"
#include "records/community_id.hpp"
#include "records/record_line.hpp"

namespace tcpscope {

namespace {

double roundedMs(double ms) {
    return std::round(ms * 1000) / 1000;
}

}  // namespace

std::string flowRecord(const RecordSource& source, const Connection& connection, const TimeLostByKind& timeLost) {
    const DirectionSummary& client = connection.from(Side::Client);
    const DirectionSummary& server = connection.from(Side::Server);
    RecordLine record(source, RecordType::Flow, connection.firstTsNs,
                      communityIdV1(connection.client, connection.server));
    record.field("flow_id", connection.id);
    record.field("client_ip", connection.client.address.toString());
    record.field("client_port", connection.client.port);
    record.field("server_ip", connection.server.address.toString());
    record.field("server_port", connection.server.port);
    record.field("end_ts_ns", source.origin.epochNs(connection.lastTsNs));
    record.field("state", connectionStateName(connection.state));
    record.field("midstream", uint64_t{connection.midstream ? 1u : 0u});
    record.field("active_closer", activeCloserName(connection));
    record.field("reset_by", connection.hasResetBy ? sideName(connection.resetBy) : std::string_view());
    record.field("packets_c2s", client.packets);
    record.field("packets_s2c", server.packets);
    record.field("bytes_c2s", client.payloadBytes);
    record.field("bytes_s2c", server.payloadBytes);
    record.field("retransmitted_bytes_c2s", client.retransmittedBytes);
    record.field("retransmitted_bytes_s2c", server.retransmittedBytes);
    if (const int64_t rttNs = connection.handshakeRttNs(); rttNs >= 0) {
        record.field("handshake_rtt_ms", milliseconds(rttNs));
    } else {
        record.nullField("handshake_rtt_ms");
    }
    record.field("syn_count", connection.synCount);
    record.field("reused_from", connection.reusedFrom != kNoConnection ? int64_t{connection.reusedFrom} : int64_t{-1});
    std::vector<std::string> kinds;
    std::vector<double> kindsMs;
    for (const auto& [kind, ms] : timeLost) {  // a std::map: in name order
        kinds.push_back(kind);
        kindsMs.push_back(roundedMs(ms));
    }
    record.field("time_lost_ms", roundedMs(totalMs(timeLost)));
    record.field("time_lost_kinds", kinds);
    record.field("time_lost_kinds_ms", kindsMs);
    return std::move(record).take();
}

}  // namespace tcpscope
