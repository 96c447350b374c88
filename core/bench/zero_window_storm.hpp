#pragma once
#include <cstdint>
#include <vector>

#include "bench/bench_random.hpp"
#include "bench/conversation.hpp"
#include "bench/tcp_dialogue.hpp"

namespace tcpscope::bench {

/// A connection whose receiver keeps its window closed for long periods while the sender probes
/// it (a one-byte zero-window probe, answered by a zero-window ACK) every `probeIntervalNs`:
/// `periods` periods of `probesPerPeriod` probes, each ended by a window update and a burst of
/// data that closes the window again. Hundreds of thousands of segments on one connection.
class ZeroWindowStorm final : public Conversation {
public:
    ZeroWindowStorm(const DialogueSettings& settings, uint64_t seed, uint32_t periods, uint64_t probesPerPeriod,
                    int64_t probeIntervalNs);

    bool nextStep(int64_t nowNs, std::vector<PlannedSegment>& out) override;

private:
    enum class Phase : uint8_t { Handshake, Burst, Probes, Close, Done };

    TcpDialogue dialogue_;
    BenchRandom random_;
    uint32_t periods_;
    uint64_t probesPerPeriod_;
    int64_t probeIntervalNs_;
    uint16_t openWindow_;
    Phase phase_ = Phase::Handshake;
    uint32_t period_ = 0;
    uint64_t probed_ = 0;
    int64_t nextNs_ = 0;
};

}  // namespace tcpscope::bench
