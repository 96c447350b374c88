#pragma once
#include <cstdint>
#include <vector>

#include "bench/bench_random.hpp"
#include "bench/conversation.hpp"

namespace tcpscope::bench {

/// One client and server using the same 4-tuple for `cycles` connections in a row (SYN, request,
/// response, FIN close by the client, which reuses its own TIME_WAIT): thousands of generations
/// of one connection-table key. One step per connection.
class ReusedTuple final : public Conversation {
public:
    ReusedTuple(uint64_t seed, uint64_t cycles, int64_t cycleIntervalNs);

    bool nextStep(int64_t nowNs, std::vector<PlannedSegment>& out) override;

private:
    BenchRandom random_;
    uint64_t cycles_;
    uint64_t done_ = 0;
    int64_t cycleIntervalNs_;
    int64_t nextCycleNs_ = 0;
    uint32_t clientIsn_;
};

}  // namespace tcpscope::bench
