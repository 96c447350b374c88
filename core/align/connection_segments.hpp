#pragma once
#include <cstdint>
#include <vector>

#include "engine/analysis_engine.hpp"

namespace tcpscope {

/// One data segment of one side of a connection, in stream coordinates.
struct StreamSegment {
    uint64_t offset = 0;   ///< bytes of the stream before it (relative sequence number - 1)
    uint32_t length = 0;
    uint32_t frame = 0;
    int64_t tsNs = 0;
};

/// The data segments of the connections asked for, per side, in capture order: what the
/// syscall links and the clock estimate match write and read byte ranges against.
class ConnectionSegments {
public:
    /// Collects the segments of every connection whose `wanted[id]` is true, in one pass over the index.
    ConnectionSegments(const AnalysisEngine& engine, const std::vector<bool>& wanted);

    /// The data segments `side` sent on `connection` (empty if not collected).
    [[nodiscard]] const std::vector<StreamSegment>& of(uint32_t connection, Side side) const;

private:
    std::vector<std::vector<StreamSegment>> segments_;  // [connection * 2 + side]
    std::vector<StreamSegment> empty_;
};

}  // namespace tcpscope
