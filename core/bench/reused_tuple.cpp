#include "bench/reused_tuple.hpp"

#include <algorithm>

#include "bench/tcp_dialogue.hpp"

namespace tcpscope::bench {

namespace {
constexpr TcpTuple kTuple{0x0a050001, 0x0a050002, 50000, 10080};  // 10.5.0.1:50000 -> 10.5.0.2:10080
constexpr int64_t kUs = 1'000;
constexpr int64_t kRttNs = 150 * kUs;
}  // namespace

ReusedTuple::ReusedTuple(uint64_t seed, uint64_t cycles, int64_t cycleIntervalNs)
    : random_(seed), cycles_(cycles), cycleIntervalNs_(std::max<int64_t>(cycleIntervalNs, 2 * kRttNs + 100 * kUs)),
      clientIsn_(static_cast<uint32_t>(random_.next())) {}

bool ReusedTuple::nextStep(int64_t nowNs, std::vector<PlannedSegment>& out) {
    if (done_ >= cycles_) {
        return false;
    }
    const int64_t startNs = std::max(nowNs, nextCycleNs_);
    nextCycleNs_ = startNs + cycleIntervalNs_;
    ++done_;

    DialogueSettings settings;
    settings.tuple = kTuple;
    // Each generation starts above the last one's sequence space, so the server accepts the
    // SYN into its TIME_WAIT (RFC 6191) and the client may reuse its own.
    settings.clientIsn = clientIsn_;
    clientIsn_ += 1'000'000 + static_cast<uint32_t>(random_.below(100'000));
    settings.serverIsn = static_cast<uint32_t>(random_.next());
    settings.clientTsBase = 1000;  // one host clock for every generation: timestamps only grow
    settings.serverTsBase = 7000;
    settings.clientIpId = static_cast<uint16_t>(random_.next());
    settings.serverIpId = static_cast<uint16_t>(random_.next());
    TcpDialogue dialogue(settings);

    int64_t ts = startNs;
    dialogue.syn(out, ts);
    dialogue.synAck(out, ts += 20 * kUs);
    dialogue.ack(out, Side::Client, ts += kRttNs);
    dialogue.send(out, Side::Client, ts += 10 * kUs, static_cast<uint16_t>(random_.between(60, 300)));
    dialogue.send(out, Side::Server, ts += 40 * kUs, static_cast<uint16_t>(random_.between(100, 1400)));
    dialogue.ack(out, Side::Client, ts += kRttNs);
    dialogue.fin(out, Side::Client, ts += 30 * kUs);
    dialogue.fin(out, Side::Server, ts += 20 * kUs);
    dialogue.ack(out, Side::Client, ts + kRttNs);
    return true;
}

}  // namespace tcpscope::bench
