#include "bench/syn_scan.hpp"

#include <algorithm>
#include <bit>

#include "bench/tcp_dialogue.hpp"

namespace tcpscope::bench {

namespace {
constexpr uint32_t kScanner = 0x0a420001;     // 10.66.0.1
constexpr uint16_t kScannerPort = 61433;
constexpr uint32_t kTargetBase = 0x0a640000;  // 10.100.0.0/16
constexpr int64_t kUs = 1'000;
// Probes planned per step: enough to keep the step overhead low, few enough to stay small.
constexpr uint64_t kProbesPerStep = 512;
}  // namespace

SynScan::SynScan(uint64_t seed, uint64_t tuples, int64_t probeGapNs)
    : random_(seed), tuples_(std::min(tuples, kMaxTuples)), probeGapNs_(std::max<int64_t>(probeGapNs, 1)) {
    // The probe order is an odd multiplier modulo a power of two: a bijection, so the first
    // `tuples_` indexes give distinct targets without remembering which were used.
    const unsigned bits = std::max(16u, static_cast<unsigned>(std::bit_width(tuples_ - 1)));
    orderMask_ = (uint64_t{1} << bits) - 1;
}

bool SynScan::nextStep(int64_t nowNs, std::vector<PlannedSegment>& out) {
    if (probed_ >= tuples_) {
        return false;
    }
    int64_t probeNs = std::max(nowNs, nextProbeNs_);
    const uint64_t end = std::min(tuples_, probed_ + kProbesPerStep);
    for (; probed_ < end; ++probed_) {
        const uint64_t target = (probed_ * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL) & orderMask_;
        DialogueSettings settings;
        settings.tuple = TcpTuple{kScanner, kTargetBase + static_cast<uint32_t>(target & 0xffff), kScannerPort,
                                  static_cast<uint16_t>(1 + (target >> 16))};
        settings.clientIsn = static_cast<uint32_t>(random_.next());
        settings.serverIsn = static_cast<uint32_t>(random_.next());
        settings.timestamps = false;
        settings.mssOption = 1460;
        settings.rawWindow = 1024;
        settings.clientIpId = static_cast<uint16_t>(random_.next());
        settings.serverIpId = static_cast<uint16_t>(random_.next());
        TcpDialogue probe(settings);
        probe.syn(out, probeNs);
        const int64_t answerNs = probeNs + random_.between(100 * kUs, 2'000 * kUs);
        const uint64_t outcome = random_.below(100);
        if (outcome < 80) {
            // Closed: RST/ACK with sequence 0, acknowledging the SYN.
            probe.stray(out, Side::Server, answerNs, tcpflag::kRst | tcpflag::kAck, 0, settings.clientIsn + 1);
        } else if (outcome >= 95) {
            probe.synAck(out, answerNs);
            probe.reset(out, Side::Client, answerNs + 15 * kUs, false);
        }
        probeNs += probeGapNs_;
    }
    nextProbeNs_ = probeNs;
    return true;
}

}  // namespace tcpscope::bench
