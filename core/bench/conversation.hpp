#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "bench/planned_segment.hpp"

namespace tcpscope::bench {

/// A stream of segments that unfolds over time: one TCP connection, or a process that opens
/// many (a port scan, one 4-tuple reused over and over). It is asked for its segments one step
/// at a time (a handshake, a request and its response, a flight of data), so however long the
/// workload, only the steps of the conversations in progress are held in memory.
class Conversation {
public:
    virtual ~Conversation() = default;

    /// Appends the next step's segments, every one at or after `nowNs` (the time of the last
    /// segment of the previous step), in any order among themselves. Returns false, appending
    /// nothing, when the conversation is over.
    virtual bool nextStep(int64_t nowNs, std::vector<PlannedSegment>& out) = 0;
};

/// A workload: starts conversations at increasing times.
class ConversationSource {
public:
    virtual ~ConversationSource() = default;

    /// When the next conversation starts, or nullopt when no more will.
    [[nodiscard]] virtual std::optional<int64_t> nextStartNs() const = 0;
    /// Starts the conversation due at nextStartNs() and moves on to the next one.
    virtual std::unique_ptr<Conversation> startNext() = 0;
    /// About how many segments one of its conversations writes: new ones stop being started
    /// when those already running are expected to fill the packet budget.
    [[nodiscard]] virtual uint64_t meanPacketsPerConversation() const = 0;
};

}  // namespace tcpscope::bench
