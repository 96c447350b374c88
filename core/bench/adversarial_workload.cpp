// W3, the adversarial capture: what makes a connection tracker slow or large rather than what
// is common. A SYN scan over millions of distinct tuples (one tiny connection each), one 4-tuple
// reused thousands of times (one key, thousands of generations), and zero-window storms (a few
// connections with hundreds of thousands of probes and ACKs each). All three run side by side
// over the whole capture.
#include <algorithm>
#include <vector>

#include "bench/bench_random.hpp"
#include "bench/reused_tuple.hpp"
#include "bench/syn_scan.hpp"
#include "bench/workload_sources.hpp"
#include "bench/zero_window_storm.hpp"

namespace tcpscope::bench {

namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kEpochNs = 1'704'067'200 * kSecond;
// The full W3 (10.4 M packets) spans 50 s.
constexpr int64_t kFullDurationNs = 50 * kSecond;
constexpr uint64_t kFullPackets = 10'400'000;
constexpr uint32_t kStormConnections = 4;
constexpr uint32_t kStormPeriods = 8;
// Shares of the packet budget: 8 % zero-window storms, 9 packets per reuse cycle at one cycle
// per 2,080 packets (5,000 cycles in the full W3); the scan takes the rest (1.9 packets a tuple).
constexpr uint64_t kStormPercent = 8;
constexpr uint64_t kPacketsPerReuseCycle = 2080;

class AdversarialWorkload final : public ConversationSource {
public:
    explicit AdversarialWorkload(const WorkloadOptions& options) : random_(options.seed ^ 0x5733'0000'0000'0003ULL) {
        const int64_t durationNs = std::max<int64_t>(
            static_cast<int64_t>(static_cast<double>(kFullDurationNs) * static_cast<double>(options.packets) /
                                 static_cast<double>(kFullPackets)),
            100 * kMs);
        const uint64_t tuples = std::clamp<uint64_t>(options.connections, 1, SynScan::kMaxTuples);
        const uint64_t cycles = std::max<uint64_t>(options.packets / kPacketsPerReuseCycle, 10);
        const uint64_t probesPerStorm = std::max<uint64_t>(options.packets * kStormPercent / 100 / kStormConnections / 2,
                                                           kStormPeriods);
        const uint64_t probesPerPeriod = probesPerStorm / kStormPeriods;

        conversations_.push_back(std::make_unique<SynScan>(random_.next(), tuples, durationNs / static_cast<int64_t>(tuples)));
        conversations_.push_back(
            std::make_unique<ReusedTuple>(random_.next(), cycles, durationNs / static_cast<int64_t>(cycles)));
        // Probes leave room for the bursts and window updates between periods.
        const int64_t probeIntervalNs = durationNs * 9 / 10 / static_cast<int64_t>(probesPerStorm);
        for (uint32_t i = 0; i < kStormConnections; ++i) {
            DialogueSettings settings;
            settings.tuple = TcpTuple{0x0a070001 + i, 0x0a070101, static_cast<uint16_t>(41000 + i), 12000};
            settings.clientIsn = static_cast<uint32_t>(random_.next());
            settings.serverIsn = static_cast<uint32_t>(random_.next());
            settings.rawWindow = 256;
            settings.clientTsBase = static_cast<uint32_t>(random_.next());
            settings.serverTsBase = static_cast<uint32_t>(random_.next());
            conversations_.push_back(std::make_unique<ZeroWindowStorm>(settings, random_.next(), kStormPeriods,
                                                                       probesPerPeriod, probeIntervalNs));
        }
    }

    [[nodiscard]] std::optional<int64_t> nextStartNs() const override {
        if (started_ >= conversations_.size()) {
            return std::nullopt;
        }
        return kEpochNs + static_cast<int64_t>(started_) * kMs;
    }

    // Everything starts at once: never hold a conversation back for the budget.
    [[nodiscard]] uint64_t meanPacketsPerConversation() const override { return 0; }

    std::unique_ptr<Conversation> startNext() override { return std::move(conversations_[started_++]); }

private:
    BenchRandom random_;
    std::vector<std::unique_ptr<Conversation>> conversations_;
    size_t started_ = 0;
};

}  // namespace

std::unique_ptr<ConversationSource> makeAdversarialWorkload(const WorkloadOptions& options) {
    return std::make_unique<AdversarialWorkload>(options);
}

}  // namespace tcpscope::bench
