#include "records/flow_record.hpp"

#include <cmath>

#include "records/community_id.hpp"
#include "records/record_header.hpp"
#include "report/report_format.hpp"

namespace tcpscope {

namespace {

double roundedMs(double ms) {
    return std::round(ms * 1000) / 1000;
}

}  // namespace

std::string flowRecord(const RecordSource& source, const Connection& connection, const TimeLostByKind& timeLost) {
    const DirectionSummary& client = connection.from(Side::Client);
    const DirectionSummary& server = connection.from(Side::Server);
    RecordJson record = recordHeader(source, RecordType::Flow, connection.firstTsNs,
                                     communityIdV1(connection.client, connection.server));
    record["flow_id"] = connection.id;
    record["client_ip"] = connection.client.address.toString();
    record["client_port"] = connection.client.port;
    record["server_ip"] = connection.server.address.toString();
    record["server_port"] = connection.server.port;
    record["end_ts_ns"] = connection.lastTsNs;
    record["state"] = connectionStateName(connection.state);
    record["midstream"] = connection.midstream ? 1 : 0;
    record["active_closer"] = activeCloserName(connection);
    record["reset_by"] = connection.hasResetBy ? sideName(connection.resetBy) : std::string_view();
    record["packets_c2s"] = client.packets;
    record["packets_s2c"] = server.packets;
    record["bytes_c2s"] = client.payloadBytes;
    record["bytes_s2c"] = server.payloadBytes;
    record["retransmitted_bytes_c2s"] = client.retransmittedBytes;
    record["retransmitted_bytes_s2c"] = server.retransmittedBytes;
    const int64_t rttNs = connection.handshakeRttNs();
    record["handshake_rtt_ms"] = rttNs >= 0 ? RecordJson(milliseconds(rttNs)) : RecordJson(nullptr);
    record["syn_count"] = connection.synCount;
    record["reused_from"] = connection.reusedFrom != kNoConnection ? int64_t{connection.reusedFrom} : int64_t{-1};
    RecordJson kinds = RecordJson::array();
    RecordJson kindsMs = RecordJson::array();
    for (const auto& [kind, ms] : timeLost) {  // a std::map: in name order
        kinds.push_back(kind);
        kindsMs.push_back(roundedMs(ms));
    }
    record["time_lost_ms"] = roundedMs(totalMs(timeLost));
    record["time_lost_kinds"] = std::move(kinds);
    record["time_lost_kinds_ms"] = std::move(kindsMs);
    return recordLine(record);
}

}  // namespace tcpscope
