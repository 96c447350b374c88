#pragma once
#include <cstdint>

#include "engine/connection_processes.hpp"
#include "report/json_report_writer.hpp"

namespace tcpscope {

/// A flow's `process` member (docs/json-report.md): `client` and `server`, each only where the
/// capture named that end's process. Writes nothing when it named neither.
void writeFlowProcessesJson(JsonStreamWriter& out, const ConnectionProcesses& processes, uint32_t connection);

}  // namespace tcpscope
