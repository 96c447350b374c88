#pragma once
#include "finding/finding.hpp"
#include "tcp/chunked_list.hpp"
#include "tcp/chunked_store.hpp"

namespace tcpscope {

/// Findings in chunks that are never moved: the log's store while an analysis runs.
using FindingChunks = ChunkedStore<Finding, 256>;

/// The findings of an analysis, in order (a finished analysis's Finding::id is its position): the
/// log's chunks, taken over as they are, so that handing them from the log to the analysis copies
/// none, and while a spill file is on they live there, not on the heap (W1 at 100 M packets:
/// 830,000 findings, 320 MB).
using FindingList = ChunkedList<Finding, 256>;

}  // namespace tcpscope
