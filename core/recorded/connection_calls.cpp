#include "recorded/connection_calls.hpp"

#include <absl/container/flat_hash_set.h>

#include <algorithm>

namespace tcpscope {

RecordedCalls callsOfConnections(const RecordedCalls& recorded, std::span<const ConnectionEnds> connections) {
    auto onConnections = [connections](const RecordedCall& call) {
        return std::any_of(connections.begin(), connections.end(),
                           [&call](const ConnectionEnds& ends) { return ends.has(call); });
    };
    RecordedCalls chosen;
    chosen.clock = recorded.clock;
    chosen.lostEvents = recorded.lostEvents;
    chosen.hasSummary = recorded.hasSummary;
    absl::flat_hash_set<uint32_t> threads;
    for (const RecordedCall& call : recorded.calls) {
        if (onConnections(call)) {
            threads.insert(call.tid);
        }
    }
    for (const RecordedCall& call : recorded.calls) {
        if (threads.contains(call.tid) && (call.hasSocket ? onConnections(call) : true)) {
            chosen.calls.push_back(call);
        }
    }
    return chosen;
}

}  // namespace tcpscope
