// W2: a few thousand long transfers of full-sized segments (MSS 1448 with timestamps, 1460
// without), most of them downloads, all running at once for most of the capture, the receiver
// acknowledging every second segment. About 3 GB for 3 M packets: the test of raw throughput.
#include <algorithm>

#include "bench/bench_random.hpp"
#include "bench/bulk_transfer.hpp"
#include "bench/workload_sources.hpp"

namespace tcpscope::bench {

namespace {

constexpr int64_t kUs = 1'000;
constexpr int64_t kMs = 1'000'000;
constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kEpochNs = 1'704'067'200 * kSecond;
// The full W2 (3 M packets) spans 30 s: about 0.8 Gbit/s.
constexpr int64_t kFullDurationNs = 30 * kSecond;
constexpr uint64_t kFullPackets = 3'000'000;
// Handshake (3), request (1), close (3).
constexpr uint64_t kControlPacketsPerTransfer = 7;

constexpr uint32_t kClientBase = 0x0a200000;  // 10.32.0.0
constexpr uint32_t kServerBase = 0x0a210000;  // 10.33.0.0
constexpr uint32_t kServerCount = 16;

class BulkTransferWorkload final : public ConversationSource {
public:
    explicit BulkTransferWorkload(const WorkloadOptions& options)
        : random_(options.seed ^ 0x5732'0000'0000'0002ULL),
          transfers_(std::max<uint64_t>(options.connections, 1)),
          packetsPerTransfer_(std::max<uint64_t>(options.packets / transfers_, 1)) {
        durationNs_ = std::max<int64_t>(
            static_cast<int64_t>(static_cast<double>(kFullDurationNs) * static_cast<double>(options.packets) /
                                 static_cast<double>(kFullPackets)),
            200 * kMs);
        // Every second data segment draws an ACK: data is two thirds of what is not control.
        const uint64_t control = kControlPacketsPerTransfer * transfers_;
        const uint64_t dataPackets = options.packets > control ? (options.packets - control) * 2 / 3 : transfers_;
        baseSegments_ = std::max<uint64_t>(dataPackets / transfers_, 2);
        remainderSegments_ = dataPackets > baseSegments_ * transfers_ ? dataPackets - baseSegments_ * transfers_ : 0;
    }

    [[nodiscard]] std::optional<int64_t> nextStartNs() const override {
        if (started_ >= transfers_) {
            return std::nullopt;
        }
        // Every transfer starts in the first fifth of the capture.
        const int64_t spreadNs = durationNs_ / 5;
        return kEpochNs + static_cast<int64_t>(static_cast<double>(spreadNs) * static_cast<double>(started_) /
                                               static_cast<double>(transfers_));
    }

    [[nodiscard]] uint64_t meanPacketsPerConversation() const override { return packetsPerTransfer_; }

    std::unique_ptr<Conversation> startNext() override {
        const uint64_t index = started_++;
        // Sizes vary by up to 40 % in pairs (one larger, the next smaller), so the total stays.
        uint64_t segments = baseSegments_;
        if (index % 2 == 0) {
            pairDelta_ = index + 1 < transfers_ ? random_.below(baseSegments_ * 2 / 5 + 1) : 0;
            segments += pairDelta_;
        } else {
            segments -= pairDelta_;
        }
        if (index == 0) {
            segments += remainderSegments_;
        }

        BulkTransferPlan plan;
        const auto client = static_cast<uint32_t>(index);
        const auto server = static_cast<uint32_t>(random_.below(kServerCount));
        plan.dialogue.tuple = TcpTuple{kClientBase + client, kServerBase + 1 + server,
                                       static_cast<uint16_t>(random_.between(32768, 60999)),
                                       static_cast<uint16_t>(server % 2 == 0 ? 8443 : 9443)};
        plan.dialogue.clientIsn = static_cast<uint32_t>(random_.next());
        plan.dialogue.serverIsn = static_cast<uint32_t>(random_.next());
        plan.dialogue.timestamps = random_.chance(500'000);  // MSS 1448 with, 1460 without
        plan.dialogue.mssOption = 1460;
        plan.dialogue.rawWindow = static_cast<uint16_t>(random_.between(2000, 24000));
        plan.dialogue.clientTsBase = static_cast<uint32_t>(random_.next());
        plan.dialogue.serverTsBase = static_cast<uint32_t>(random_.next());
        plan.dialogue.clientIpId = static_cast<uint16_t>(random_.next());
        plan.dialogue.serverIpId = static_cast<uint16_t>(random_.next());
        plan.sender = random_.chance(800'000) ? Side::Server : Side::Client;
        plan.segments = std::max<uint64_t>(segments, 2);
        plan.flightSegments = static_cast<uint32_t>(2 * random_.between(4, 22));
        plan.rttNs = random_.between(200 * kUs, 60 * kMs);
        const uint64_t flights = (plan.segments + plan.flightSegments - 1) / plan.flightSegments;
        // Spread over about three quarters of the capture, whenever the transfer started.
        const int64_t activeNs = durationNs_ * 3 / 4;
        plan.flightIntervalNs = std::max<int64_t>(activeNs / static_cast<int64_t>(flights), plan.rttNs);
        return std::make_unique<BulkTransfer>(plan);
    }

private:
    BenchRandom random_;
    uint64_t transfers_;
    uint64_t packetsPerTransfer_;
    int64_t durationNs_ = 0;
    uint64_t baseSegments_ = 0;
    uint64_t remainderSegments_ = 0;
    uint64_t pairDelta_ = 0;
    uint64_t started_ = 0;
};

}  // namespace

std::unique_ptr<ConversationSource> makeBulkTransferWorkload(const WorkloadOptions& options) {
    return std::make_unique<BulkTransferWorkload>(options);
}

}  // namespace tcpscope::bench
