#include "detect/time_wait_detector.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include <fmt/format.h>

namespace tcpscope {

namespace {

constexpr int64_t kNsPerSecond = 1'000'000'000;
constexpr size_t kMaxSeriesPoints = 200;
constexpr size_t kMaxListedServers = 16;
constexpr uint64_t kRefreshEveryCloses = 1024;  // besides at powers of two, so a live view keeps moving

// `value` to a multiple of `unit` (0.1, 0.01, ...), as the nearest double to that decimal.
double rounded(double value, double unit) { return std::round(value / unit) / std::round(1 / unit); }

bool isPlainSyn(const TcpSegment& segment) {
    return (segment.flags & (tcpflag::kSyn | tcpflag::kAck | tcpflag::kRst)) == tcpflag::kSyn;
}

}  // namespace

TimeWaitDetector::ConnectionState& TimeWaitDetector::stateOf(uint32_t connection) {
    return states_.of(connection);
}

void TimeWaitDetector::expireUntil(int64_t nowNs) {
    while (!expiries_.empty() && expiries_.front().tsNs <= nowNs) {
        const Expiry expiry = expiries_.front();
        expiries_.pop_front();
        endTimeWait(expiry.connection, expiry.host, expiry.tsNs);
    }
}

void TimeWaitDetector::endTimeWait(uint32_t connection, uint32_t host, int64_t tsNs) {
    ConnectionState& state = stateOf(connection);
    if (state.timeWaitLive) {
        state.timeWaitLive = false;
        hosts_[host].population.add(tsNs, -1);
    }
}

template <typename Record>
void TimeWaitDetector::endTimeWaitEarly(const Record& connection, int64_t tsNs) {
    if (stateOf(connection.id).timeWaitLive) {
        endTimeWait(connection.id, hostIndex_.at(hostKeyOf(connection)), tsNs);
    }
}

void TimeWaitDetector::prefetch(const SegmentEvent& event) const {
    // A FIN after the peer's may close the connection: its host's slot is looked up then.
    const ConnectionSnapshot& connection = event.connection;
    if ((event.segment.flags & tcpflag::kFin) != 0 && connection.hasActiveCloser &&
        connection.activeCloser != event.sender) {
        hostIndex_.prefetch(hostKeyOf(connection));
    }
}

void TimeWaitDetector::onSegment(const SegmentEvent& event) {
    const TcpSegment& segment = event.segment;
    const ConnectionSnapshot& connection = event.connection;
    expire(event.tsNs);
    // Only a SYN, a FIN, a RST (or a new generation's first segment) changes what is counted.
    if ((segment.flags & (tcpflag::kSyn | tcpflag::kFin | tcpflag::kRst)) == 0 && event.frame != connection.firstFrame) {
        return;
    }

    // A new SYN on the tuple replaces the earlier generation's TIME_WAIT: the holder accepted it
    // or, after a collision, the sender's RST removed it.
    if (connection.reusedFrom != kNoConnection && event.frame == connection.firstFrame) {
        // The earlier generation no longer changes once this one took its tuple (see SegmentObserver).
        endTimeWaitEarly(engine().connections()[connection.reusedFrom], event.tsNs);
    }
    ConnectionState& state = stateOf(connection.id);
    if ((segment.flags & tcpflag::kRst) != 0) {
        if (state.timeWaitLive) {
            endTimeWaitEarly(connection, event.tsNs);  // a RST ends TIME_WAIT (Linux, tcp_rfc1337=0)
        } else {
            state.aborted = true;
        }
    } else if (isPlainSyn(segment)) {
        state.aborted = false;  // the RST belonged to a handshake that is being retried
    }

    // The second FIN closes the connection: the first FIN's sender now sits in TIME_WAIT.
    const bool firstFinOfSender =
        (segment.flags & tcpflag::kFin) != 0 && connection.from(event.sender).firstFinFrame == event.frame;
    if (firstFinOfSender && connection.from(otherSide(event.sender)).sawFin && connection.hasActiveCloser &&
        connection.activeCloser != event.sender && !state.aborted) {
        recordClose(connection, event.tsNs);
    }
}

void TimeWaitDetector::recordClose(const ConnectionSnapshot& connection, int64_t tsNs) {
    const HostKey key = hostKeyOf(connection);
    auto [slot, isNew] = hostIndex_.try_emplace(key, static_cast<uint32_t>(hosts_.size()));
    if (isNew) {
        hosts_.append().key = key;
    }
    HostState& host = hosts_[slot->second];
    ++host.closes;
    host.population.add(tsNs, +1);
    stateOf(connection.id).timeWaitLive = true;
    expiries_.push_back({tsNs + static_cast<int64_t>(options().timeWaitSeconds * 1e9), connection.id, slot->second});

    if (host.closes < options().timeWaitMinCloses) {
        addEarlyClose(host, connection.id, tsNs);
        return;
    }
    if (!host.tally) {
        // Counted as if the tally had been kept from the first close.
        host.tally = std::make_unique<CloseTally>();
        replayEarlyCloses(host);
    }
    CloseTally& tally = *host.tally;
    count(tally, connection.server, tsNs);
    const bool due = std::has_single_bit(host.closes) || host.closes % kRefreshEveryCloses == 0 ||
                     !tally.hasFinding || (isWarning(host) && tally.severity != Severity::Warning);
    if (due) {
        refresh(slot->second, tsNs);
    }
}

void TimeWaitDetector::addEarlyClose(HostState& host, uint32_t connection, int64_t tsNs) {
    const uint32_t index = earlyCloses_.take();
    earlyCloses_[index] = EarlyClose{tsNs, connection, kNoEarlyClose};
    if (host.lastEarly == kNoEarlyClose) {
        host.firstEarly = index;
    } else {
        earlyCloses_[host.lastEarly].next = index;
    }
    host.lastEarly = index;
}

void TimeWaitDetector::replayEarlyCloses(HostState& host) {
    for (uint32_t index = host.firstEarly; index != kNoEarlyClose;) {
        const EarlyClose early = earlyCloses_[index];
        // The server endpoint is fixed at creation (see SegmentObserver).
        count(*host.tally, engine().connections()[early.connection].server, early.tsNs);
        earlyCloses_.release(index);
        index = early.next;
    }
    host.firstEarly = kNoEarlyClose;
    host.lastEarly = kNoEarlyClose;
}

void TimeWaitDetector::count(CloseTally& tally, const Endpoint& server, int64_t tsNs) {
    if (tally.closesSoFar.value() == 0) {
        tally.firstCloseTsNs = tsNs;
    }
    tally.lastCloseTsNs = tsNs;
    tally.lastSecondCloses.push_back(tsNs);
    while (tally.lastSecondCloses.front() <= tsNs - kNsPerSecond) {
        tally.lastSecondCloses.pop_front();
    }
    if (tally.lastSecondCloses.size() > tally.peakClosesPerSecond) {
        tally.peakClosesPerSecond = tally.lastSecondCloses.size();
        tally.peakRateTsNs = tally.lastSecondCloses.front();
    }
    // A few servers per host at most: a short list searched in place, no tree node per server.
    auto listed = std::find_if(tally.servers.begin(), tally.servers.end(),
                               [&](const auto& entry) { return entry.first == server; });
    if (listed != tally.servers.end()) {
        ++listed->second;
    } else if (tally.servers.size() < kMaxListedServers) {
        tally.servers.emplace_back(server, 1);
    } else {
        ++tally.otherServers;
    }
    tally.closesSoFar.add(tsNs, +1);
}

// Closes per second over time, from the cumulative count: [seconds since the first close, rate].
nlohmann::json TimeWaitDetector::closeRates(const CloseTally& tally, int64_t nowNs) {
    struct Rate {
        double seconds;
        double highest;  // closes per second
    };
    std::vector<PopulationSeries::Point> cumulative =
        tally.closesSoFar.pointList(tally.firstCloseTsNs, nowNs, kMaxSeriesPoints);
    const double stepSeconds = tally.closesSoFar.pointSeconds(nowNs, kMaxSeriesPoints);
    std::vector<Rate> rates;
    rates.reserve(cumulative.size());
    int64_t before = 0;
    for (const PopulationSeries::Point& point : cumulative) {
        rates.push_back({point.seconds, rounded(static_cast<double>(point.highest - before) / stepSeconds, 0.1)});
        before = point.highest;
    }
    return PopulationSeries::pairsJson(rates);
}

bool TimeWaitDetector::isWarning(const HostState& host) const {
    const double rangePorts = static_cast<double>(options().portRangeHigh) - options().portRangeLow + 1;
    return static_cast<double>(host.population.peak()) > options().timeWaitWarnShare * rangePorts;
}

// The finding is written from the host's record when it is read (describe); here it only
// learns that it changed, and until when its series run.
void TimeWaitDetector::refresh(uint32_t hostIndex, int64_t nowNs) {
    HostState& host = hosts_[hostIndex];
    CloseTally& tally = *host.tally;
    if (!tally.hasFinding) {
        Finding finding;
        finding.kind = FindingKind::TimeWaitChurn;
        finding.connection = kNoConnection;
        finding.tsNs = tally.firstCloseTsNs;
        (host.key.role == Side::Server ? finding.parties.server : finding.parties.client) = host.key.address.toString();
        tally.findingId = log().add(std::move(finding), this, hostIndex);
        tally.hasFinding = true;
    }
    tally.severity = isWarning(host) ? Severity::Warning : Severity::Info;
    tally.seriesEndNs = nowNs;
    log().changed(tally.findingId);
}

void TimeWaitDetector::measure(uint32_t hostIndex, Finding& finding) const {
    finding.severity = hosts_[hostIndex].tally->severity;
}

void TimeWaitDetector::describe(uint32_t hostIndex, Finding& finding, Detail detail) const {
    const HostState& host = hosts_[hostIndex];
    const CloseTally& tally = *host.tally;
    const int64_t nowNs = tally.seriesEndNs;
    const DetectorOptions& limits = options();
    const auto rangePorts = static_cast<uint32_t>(limits.portRangeHigh - limits.portRangeLow + 1);
    const double spanSeconds =
        std::max(1.0, static_cast<double>(tally.lastCloseTsNs - tally.firstCloseTsNs) / kNsPerSecond);
    const double meanRate = static_cast<double>(host.closes) / spanSeconds;
    const double peakAtSeconds = static_cast<double>(host.population.peakTsNs() - tally.firstCloseTsNs) / kNsPerSecond;
    const double shareOfRange = static_cast<double>(host.population.peak()) / rangePorts;
    const bool client = host.key.role == Side::Client;

    measure(hostIndex, finding);
    finding.facts = ChurnFacts{host.key.address, host.key.role, host.closes,
                               static_cast<uint64_t>(host.population.peak())};
    if (detail == Detail::Full) {
        std::vector<std::pair<Endpoint, uint64_t>> byServer = tally.servers;
        std::sort(byServer.begin(), byServer.end());  // listed by endpoint
        nlohmann::json::array_t servers;
        servers.reserve(byServer.size());
        for (const auto& [endpoint, closes] : byServer) {
            nlohmann::json::object_t server;
            server.emplace("server", endpoint.toString());
            server.emplace("closes", closes);
            servers.emplace_back(std::move(server));
        }
        // Member by member: an initializer list would copy every value once more.
        const double closesSpanSeconds = static_cast<double>(tally.lastCloseTsNs - tally.firstCloseTsNs) / kNsPerSecond;
        nlohmann::json::object_t evidence;
        evidence.emplace("host", host.key.address.toString());
        evidence.emplace("role", sideName(host.key.role));
        evidence.emplace("why", client ? "client_closes_first" : "server_closes_first");
        evidence.emplace("active_closes", host.closes);
        evidence.emplace("time_wait_s", limits.timeWaitSeconds);
        evidence.emplace("peak_population", host.population.peak());
        evidence.emplace("peak_population_at_s", rounded(peakAtSeconds, 0.001));
        evidence.emplace("population_now", host.population.value());
        evidence.emplace("peak_closes_per_s", tally.peakClosesPerSecond);
        evidence.emplace("peak_rate_at_s",
                         rounded(static_cast<double>(tally.peakRateTsNs - tally.firstCloseTsNs) / kNsPerSecond, 0.001));
        evidence.emplace("mean_closes_per_s", rounded(meanRate, 0.01));  // over the span of the closes, at least 1 s
        evidence.emplace("closes_span_s", rounded(closesSpanSeconds, 0.001));
        evidence.emplace("port_range", fmt::format("{}-{}", limits.portRangeLow, limits.portRangeHigh));
        evidence.emplace("peak_share_of_port_range", rounded(shareOfRange, 0.0001));
        evidence.emplace("servers", std::move(servers));
        evidence.emplace("other_servers_closes", tally.otherServers);
        evidence.emplace("series", host.population.points(tally.firstCloseTsNs, nowNs, kMaxSeriesPoints));
        evidence.emplace("series_step_s", host.population.pointSeconds(nowNs, kMaxSeriesPoints));
        evidence.emplace("closes_per_s_series", closeRates(tally, nowNs));
        finding.evidence = std::move(evidence);
    }

    const std::string who =
        client ? fmt::format("client {} closed {} connections first", host.key.address.toString(), host.closes)
               : fmt::format(
                     "server {} closed {} connections first (its FIN came before the client's, as an "
                     "HTTP/1.0 server without keep-alive does)",
                     host.key.address.toString(), host.closes);
    const std::string load = fmt::format(
        "so it keeps each in TIME_WAIT for {:g} s: up to {} at once ({:.1f}% of the {}-port range {}-{}), {} closes "
        "in the busiest second, {:.1f}/s on average",
        limits.timeWaitSeconds, host.population.peak(), shareOfRange * 100, rangePorts, limits.portRangeLow,
        limits.portRangeHigh, tally.peakClosesPerSecond, meanRate);
    const std::string effect =
        client ? "each entry blocks that source port towards the same server until it expires, which is what runs "
                 "out first (port_exhaustion)"
               : "clients that come back on the same source port meet these entries (port_reuse)";
    const std::string fix = client ? "keep-alive or a connection pool, so that far fewer connections are opened and "
                                     "closed; tcp_tw_reuse lets the client reuse its own TIME_WAIT ports safely"
                                   : "keep-alive (HTTP/1.1), or let the client close first so the TIME_WAIT stays "
                                     "on the client";
    finding.summary = fmt::format("{}, {}; no time is lost by itself, but {}; fix: {}.", who, load, effect, fix);
}

void TimeWaitDetector::onEnd(int64_t lastTsNs) {
    expire(lastTsNs);
    log().reservePopulations(hosts_.size());
    for (uint32_t index = 0; index < hosts_.size(); ++index) {
        HostState& host = hosts_[index];
        if (host.closes >= options().timeWaitMinCloses) {
            refresh(index, lastTsNs);
        }
        if (host.tally) {
            log().addPopulation(populationOf(host, host.population));
            continue;
        }
        // No finding to describe: its series was only for the chart, and goes there.
        log().addPopulation(populationOf(host, std::move(host.population)));
        host.population = {};
        host.firstEarly = kNoEarlyClose;
        host.lastEarly = kNoEarlyClose;
    }
    // The findings are described from the hosts' tallies: what only the packets needed goes first.
    earlyCloses_.clear();
    states_.clear();
    expiries_ = {};
    hostIndex_ = {};
}

HostPopulation TimeWaitDetector::populationOf(const HostState& host, PopulationSeries series) const {
    HostPopulation population =
        HostPopulation::of(HostPopulation::Kind::TimeWait, host.key.address, options(), std::move(series));
    population.role = host.key.role;
    return population;
}

void TimeWaitDetector::addPopulationsOf(const IpAddress& address, std::vector<HostPopulation>& populations) const {
    for (const HostState& host : hosts_) {
        if (host.key.address == address) {
            populations.push_back(populationOf(host, host.population));
        }
    }
}

void TimeWaitDetector::visitAllPopulations(const PopulationVisitor& visit) const {
    for (const HostState& host : hosts_) {
        visit(populationOf(host, {}), host.population);
    }
}

void TimeWaitDetector::onRetire(const Connection& connection) {
    // A TIME_WAIT still counted has its expiry queued under this id; the retirement age is longer
    // than TIME_WAIT, so this keeps a state only if the ages are set otherwise.
    if (!stateOf(connection.id).timeWaitLive) {
        states_.release(connection.id);
    }
}

}  // namespace tcpscope
