// W1: about a million short request/response connections interleaved over time, from many
// clients to a few hundred servers, with every trouble the detectors look for mixed in at a few
// percent each: RTO and fast retransmissions, out-of-order segments, zero windows, Nagle and
// delayed-ACK stalls, SYN and SYN-ACK retransmissions (a full listen queue), 4-tuple reuse
// (accepted, and colliding with the server's TIME_WAIT), one client churning through a small
// port range in bursts, and one client whose few ports all sit in TIME_WAIT until they expire.
#include <algorithm>
#include <deque>
#include <vector>

#include "bench/bench_random.hpp"
#include "bench/short_exchange.hpp"
#include "bench/workload_sources.hpp"

namespace tcpscope::bench {

namespace {

constexpr int64_t kUs = 1'000;
constexpr int64_t kMs = 1'000'000;
constexpr int64_t kSecond = 1'000'000'000;
// 10,000 new connections per second: the full W1 spans about 100 s.
constexpr int64_t kMeanArrivalNs = 100 * kUs;
// Capture start: 2024-01-01T00:00:00Z.
constexpr int64_t kEpochNs = 1'704'067'200 * kSecond;

constexpr uint32_t kClientBase = 0x0a100000;      // 10.16.0.0/12
constexpr uint32_t kServerBase = 0x0a020000;      // 10.2.0.0
constexpr uint32_t kServerCount = 256;
constexpr uint32_t kChurnClient = 0x0a030001;     // 10.3.0.1
constexpr uint32_t kChurnServer = 0x0a020101;     // 10.2.1.1
constexpr uint16_t kChurnServerPort = 6443;
constexpr uint16_t kChurnFirstPort = 40000;
constexpr uint16_t kChurnPorts = 100;
// Churn comes in bursts: 8 % of new connections during the first 2 s of every 10 s, about
// 800 per second, faster than Linux's port range can recycle through TIME_WAIT (470 per second).
constexpr int64_t kChurnPeriodNs = 10 * kSecond;
constexpr int64_t kChurnBurstNs = 2 * kSecond;
constexpr uint64_t kChurnPerMille = 80;
constexpr uint64_t kReusePerMille = 20;
// The exhausted client: 40 ports, one connection every 10 ms until all are in TIME_WAIT, then
// nothing until the first TIME_WAIT expires (connect() fails with EADDRNOTAVAIL meanwhile).
constexpr uint32_t kExhaustedClient = 0x0a030002;  // 10.3.0.2
constexpr uint16_t kExhaustedFirstPort = 45000;
constexpr uint16_t kExhaustedPorts = 40;
constexpr int64_t kExhaustedGapNs = 10 * kMs;
constexpr int64_t kTimeWaitNs = 60 * kSecond;
constexpr uint16_t kEphemeralLow = 32768;
constexpr uint16_t kEphemeralHigh = 60999;
constexpr size_t kRecentCapacity = 4096;

// What a connection costs beyond its exchanges (handshake, close, troubles), and per exchange
// (request, response segments, ACKs): measured on generated files, to meet the packet budget.
constexpr double kPacketsPerConnection = 6.6;
constexpr double kPacketsPerExchange = 2.97;

class ShortConnectionWorkload final : public ConversationSource, public FinishedConnectionSink {
public:
    explicit ShortConnectionWorkload(const WorkloadOptions& options)
        : random_(options.seed ^ 0x5731'0000'0000'0001ULL),
          connections_(options.connections),
          packetsPerConnection_(std::max<uint64_t>(options.packets / std::max<uint64_t>(options.connections, 1), 1)),
          clientCount_(static_cast<uint32_t>(std::clamp<uint64_t>(options.connections / 20, 16, 1u << 16))),
          clientPorts_(clientCount_) {
        for (uint16_t& port : clientPorts_) {
            port = static_cast<uint16_t>(random_.between(kEphemeralLow, kEphemeralHigh));
        }
        // Exchanges are 0 (5 %: a health check) or 1 + a geometric count whose mean meets the budget.
        const double exchanges = (static_cast<double>(packetsPerConnection_) - kPacketsPerConnection) / kPacketsPerExchange;
        const double extra = std::max(0.0, exchanges / 0.95 - 1.0);
        moreExchangesChance_ = extra / (1.0 + extra);
        nextStartNs_ = kEpochNs;
    }

    [[nodiscard]] std::optional<int64_t> nextStartNs() const override {
        if (started_ >= connections_) {
            return std::nullopt;
        }
        return std::min(nextStartNs_, exhaustedStartNs());
    }

    [[nodiscard]] uint64_t meanPacketsPerConversation() const override { return packetsPerConnection_; }

    std::unique_ptr<Conversation> startNext() override {
        ++started_;
        if (exhaustedStartNs() < nextStartNs_) {
            return std::make_unique<ShortExchange>(exhaustedPlan(), this);
        }
        const int64_t startNs = nextStartNs_;
        nextStartNs_ += std::max<int64_t>(random_.exponentialNs(kMeanArrivalNs), 1);
        const uint64_t kind = random_.below(1000);
        const bool churnBurst = (startNs - kEpochNs) % kChurnPeriodNs < kChurnBurstNs;
        ShortExchangePlan plan;
        if (churnBurst && kind < kChurnPerMille) {
            plan = churnPlan();
        } else if (kind >= kChurnPerMille && kind < kChurnPerMille + kReusePerMille && reusable(startNs)) {
            plan = reusePlan(startNs);
        } else {
            plan = ordinaryPlan();
        }
        return std::make_unique<ShortExchange>(plan, this);
    }

    void finished(const FinishedConnection& connection) override {
        // Churn connections reuse their ports on their own; keep the rest for deliberate reuse.
        if (connection.tuple.clientIp == kChurnClient || connection.tuple.clientIp == kExhaustedClient) {
            return;
        }
        if (recent_.size() == kRecentCapacity) {
            recent_.pop_front();
        }
        recent_.push_back(connection);
    }

private:
    DialogueSettings dialogueFor(const TcpTuple& tuple) {
        DialogueSettings settings;
        settings.tuple = tuple;
        settings.clientIsn = static_cast<uint32_t>(random_.next());
        settings.serverIsn = static_cast<uint32_t>(random_.next());
        settings.timestamps = !random_.chance(100'000);
        settings.mssOption = random_.chance(100'000) ? 1380 : 1460;
        settings.rawWindow = static_cast<uint16_t>(random_.between(300, 1000));
        settings.clientTsBase = static_cast<uint32_t>(random_.next());
        settings.serverTsBase = static_cast<uint32_t>(random_.next());
        settings.clientIpId = static_cast<uint16_t>(random_.next());
        settings.serverIpId = static_cast<uint16_t>(random_.next());
        return settings;
    }

    int64_t drawRtt() {
        const uint64_t kind = random_.below(100);
        if (kind < 50) {
            return random_.between(100 * kUs, kMs);  // same data centre
        }
        if (kind < 85) {
            return random_.between(5 * kMs, 40 * kMs);  // same continent
        }
        return random_.between(60 * kMs, 200 * kMs);
    }

    uint32_t drawExchanges() {
        if (random_.chance(50'000)) {
            return 0;
        }
        uint32_t exchanges = 1;
        while (exchanges < 64 && random_.unit() < moreExchangesChance_) {
            ++exchanges;
        }
        return exchanges;
    }

    ShortExchangePlan ordinaryPlan() {
        const auto client = static_cast<uint32_t>(random_.below(clientCount_));
        uint16_t& port = clientPorts_[client];
        port = port >= kEphemeralHigh ? kEphemeralLow : static_cast<uint16_t>(port + 1);
        // A few servers get most of the connections.
        const auto server = static_cast<uint32_t>(random_.below(random_.below(kServerCount) + 1));
        // Server ports for which tshark has no dissector: it would otherwise parse the opaque
        // payload as HTTP or TLS and reassemble streams waiting for the end of a header that
        // never comes, which no real capture makes it do. tshark does TCP analysis only, as we do.
        static constexpr uint16_t kServerPorts[] = {8443, 9443, 7443, 10443};
        TcpTuple tuple{kClientBase + client, kServerBase + 1 + server, port, kServerPorts[server % 4]};

        ShortExchangePlan plan;
        plan.dialogue = dialogueFor(tuple);
        plan.seed = random_.next();
        plan.rttNs = drawRtt();
        plan.exchanges = drawExchanges();
        plan.closer = random_.chance(400'000) ? Side::Server : Side::Client;
        plan.finAckTogether = random_.chance(700'000);
        plan.resetClose = random_.chance(30'000);
        plan.synDropped = random_.chance(10'000);
        plan.handshakeAckDropped = random_.chance(5'000);
        plan.nagleStall = random_.chance(30'000);
        plan.longIdle = random_.chance(30'000);
        const uint64_t trouble = random_.below(1000);
        if (trouble < 25) {
            plan.trouble = ResponseTrouble::RtoRetransmission;
        } else if (trouble < 40) {
            plan.trouble = ResponseTrouble::FastRetransmission;
        } else if (trouble < 55) {
            plan.trouble = ResponseTrouble::OutOfOrder;
        } else if (trouble < 65) {
            plan.trouble = ResponseTrouble::ZeroWindow;
        }
        if (plan.trouble != ResponseTrouble::None && plan.exchanges == 0) {
            plan.exchanges = 1;
        }
        return plan;
    }

    // One client opening short connections to one service through 100 ports, closing each
    // first: its TIME_WAIT entries pile up and every port comes back within a second.
    ShortExchangePlan churnPlan() {
        const auto port = static_cast<uint16_t>(kChurnFirstPort + churnCursor_++ % kChurnPorts);
        ShortExchangePlan plan;
        plan.dialogue = dialogueFor(TcpTuple{kChurnClient, kChurnServer, port, kChurnServerPort});
        plan.seed = random_.next();
        plan.rttNs = random_.between(80 * kUs, 300 * kUs);
        plan.exchanges = 1;
        plan.closer = Side::Client;
        return plan;
    }

    // Round r of the exhausted client starts one TIME_WAIT length (plus a margin) after round r-1.
    [[nodiscard]] int64_t exhaustedStartNs() const {
        const int64_t round = static_cast<int64_t>(exhaustedCursor_ / kExhaustedPorts);
        const int64_t inRound = static_cast<int64_t>(exhaustedCursor_ % kExhaustedPorts);
        return kEpochNs + kSecond + round * (kTimeWaitNs + kSecond) + inRound * kExhaustedGapNs;
    }

    ShortExchangePlan exhaustedPlan() {
        const auto port = static_cast<uint16_t>(kExhaustedFirstPort + exhaustedCursor_++ % kExhaustedPorts);
        ShortExchangePlan plan;
        plan.dialogue = dialogueFor(TcpTuple{kExhaustedClient, kChurnServer, port, kChurnServerPort});
        plan.seed = random_.next();
        plan.rttNs = random_.between(80 * kUs, 300 * kUs);
        plan.exchanges = 1;
        plan.closer = Side::Client;
        return plan;
    }

    [[nodiscard]] bool reusable(int64_t startNs) const {
        return !recent_.empty() && recent_.front().closedNs + kMs < startNs;
    }

    // The oldest finished connection's 4-tuple again, with a newer ISN. If the server closed it
    // first and it is still in the server's TIME_WAIT, half the time the SYN collides.
    ShortExchangePlan reusePlan(int64_t startNs) {
        const FinishedConnection earlier = recent_.front();
        recent_.pop_front();
        ShortExchangePlan plan = ordinaryPlan();
        plan.dialogue.tuple = earlier.tuple;
        plan.dialogue.clientIsn = earlier.clientNextSeq + 100'000 + static_cast<uint32_t>(random_.below(1u << 20));
        plan.synDropped = false;
        const bool serverTimeWait =
            earlier.closer == Side::Server && !earlier.reset && startNs - earlier.closedNs < 60 * kSecond;
        if (serverTimeWait && random_.chance(500'000)) {
            plan.collision = earlier;
        }
        return plan;
    }

    BenchRandom random_;
    uint64_t connections_;
    uint64_t packetsPerConnection_;
    uint32_t clientCount_;
    std::vector<uint16_t> clientPorts_;
    double moreExchangesChance_ = 0;
    int64_t nextStartNs_ = 0;
    uint64_t started_ = 0;
    uint64_t churnCursor_ = 0;
    uint64_t exhaustedCursor_ = 0;
    std::deque<FinishedConnection> recent_;
};

}  // namespace

std::unique_ptr<ConversationSource> makeShortConnectionWorkload(const WorkloadOptions& options) {
    return std::make_unique<ShortConnectionWorkload>(options);
}

}  // namespace tcpscope::bench
