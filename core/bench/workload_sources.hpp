#pragma once
#include <memory>

#include "bench/conversation.hpp"
#include "bench/workload.hpp"

namespace tcpscope::bench {

/// W1: short request/response connections (short_connection_workload.cpp).
std::unique_ptr<ConversationSource> makeShortConnectionWorkload(const WorkloadOptions& options);
/// W2: long bulk transfers of full-sized segments (bulk_transfer_workload.cpp).
std::unique_ptr<ConversationSource> makeBulkTransferWorkload(const WorkloadOptions& options);
/// W3: SYN scan, one tuple reused over and over, zero-window storms (adversarial_workload.cpp).
std::unique_ptr<ConversationSource> makeAdversarialWorkload(const WorkloadOptions& options);

}  // namespace tcpscope::bench
