#include "records/record_header.hpp"

namespace tcpscope {

RecordJson recordHeader(const RecordSource& source, RecordType type, int64_t tsNs, std::string communityId) {
    RecordJson record = RecordJson::object();
    record["record"] = recordTypeName(type);
    record["schema"] = kRecordSchema;
    record["host"] = source.host;
    record["capture_id"] = source.captureId;
    record["tcpscope_version"] = source.version;
    record["ts_ns"] = tsNs;
    record["community_id"] = std::move(communityId);
    return record;
}

std::string recordLine(const RecordJson& record) {
    return record.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace tcpscope
