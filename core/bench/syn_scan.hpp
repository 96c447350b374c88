#pragma once
#include <cstdint>
#include <vector>

#include "bench/bench_random.hpp"
#include "bench/conversation.hpp"

namespace tcpscope::bench {

/// A SYN scan (nmap -sS) of `tuples` distinct destination address and port pairs from one
/// source port, in a pseudo-random order. A closed port answers RST/ACK (80 %), a filtered one
/// nothing (15 %), an open one SYN-ACK, which the scanner resets (5 %). Every probe is a
/// connection of its own that never gets further: the connection table's worst case.
class SynScan final : public Conversation {
public:
    SynScan(uint64_t seed, uint64_t tuples, int64_t probeGapNs);

    bool nextStep(int64_t nowNs, std::vector<PlannedSegment>& out) override;

    /// Largest number of distinct tuples a scan can cover (2^26: 65,536 hosts x 1,024 ports).
    static constexpr uint64_t kMaxTuples = uint64_t{1} << 26;

private:
    BenchRandom random_;
    uint64_t tuples_;
    uint64_t probed_ = 0;
    uint64_t orderMask_;
    int64_t probeGapNs_;
    int64_t nextProbeNs_ = 0;
};

}  // namespace tcpscope::bench
