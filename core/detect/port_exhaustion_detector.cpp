#include "detect/port_exhaustion_detector.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tcpscope {

namespace {

constexpr int64_t kNsPerSecond = 1'000'000'000;
constexpr double kNearFullShare = 0.9;              // ports in use / observed range before a pause
constexpr int64_t kMinRateWindowNs = kNsPerSecond;  // a rate over less than this is not extrapolated
constexpr size_t kMaxSeriesPoints = 200;
constexpr size_t kMaxListedPauses = 100;

// `value` to a multiple of `unit` (0.1, 0.01, ...), as the nearest double to that decimal.
double rounded(double value, double unit) { return std::round(value / unit) / std::round(1 / unit); }
double seconds(int64_t ns) { return static_cast<double>(ns) / kNsPerSecond; }

bool isPlainSyn(const TcpSegment& segment) {
    return (segment.flags & (tcpflag::kSyn | tcpflag::kAck | tcpflag::kRst)) == tcpflag::kSyn;
}

constexpr std::string_view kRemedies =
    "keep-alive or a connection pool, several jobs per connection (ab -k), a wider net.ipv4.ip_local_port_range, "
    "or net.ipv4.tcp_tw_reuse=1 on the client; tcp_fin_timeout does not shorten TIME_WAIT on Linux (it is the "
    "FIN_WAIT2 timeout), and tcp_tw_recycle is no option: it was removed in Linux 4.12 because it broke clients "
    "behind NAT";

}  // namespace

PortExhaustionDetector::ConnectionState& PortExhaustionDetector::stateOf(uint32_t connection) {
    return states_.of(connection);
}

PortExhaustionDetector::PoolKey PortExhaustionDetector::keyOf(uint32_t poolIndex) const {
    // The client and server endpoints are fixed at creation (see SegmentObserver).
    const Connection& first = engine().connections()[pools_[poolIndex].firstConnection];
    return {first.client.address, first.server};
}

uint32_t PortExhaustionDetector::hashOf(const PoolKey& key) {
    return static_cast<uint32_t>(absl::Hash<PoolKey>{}(key) >> 32);
}

void PortExhaustionDetector::prefetch(const SegmentEvent& event) const {
    const ConnectionSnapshot& connection = event.connection;
    if (event.frame == connection.firstFrame) {
        // Its pool is looked up (and most often inserted) now: the index's slot is a cache miss.
        const PoolKey key{connection.client.address, connection.server};
        prefetched_ = {event.frame, hashOf(key), true};
        poolIndex_.prefetch(PoolProbe{key, prefetched_.hash});
    } else if ((event.segment.flags & (tcpflag::kSyn | tcpflag::kFin | tcpflag::kRst)) != 0) {
        states_.prefetch(connection.id);
    }
}

uint32_t PortExhaustionDetector::poolIndexOf(const ConnectionSnapshot& connection, uint32_t frame, bool& isNew) {
    const PoolKey key{connection.client.address, connection.server};
    const uint32_t hash = prefetched_.valid && prefetched_.frame == frame ? prefetched_.hash : hashOf(key);
    isNew = false;
    const auto slot = poolIndex_.lazy_emplace(PoolProbe{key, hash}, [&](const auto& construct) {
        isNew = true;
        const auto index = static_cast<uint32_t>(pools_.size());
        pools_.append().firstConnection = connection.id;
        construct(PoolSlot{index, hash});
    });
    return slot->pool;
}

PortExhaustionDetector::Pool& PortExhaustionDetector::fullPool(uint32_t poolIndex) {
    PoolEntry& entry = pools_[poolIndex];
    if (!entry.compact()) {
        return fullPools_[entry.full];
    }
    // Replays what the pool's one connection did, as onFirstSegment, acquire, onClientClose
    // and release would have done it on a Pool.
    const bool afterSyn = entry.full == kCompactAfterSyn;
    entry.full = static_cast<uint32_t>(fullPools_.size());
    Pool& pool = fullPools_.append();
    pool.key = keyOf(poolIndex);
    // Only fields fixed at creation are read: endpoints, first frame and time (see SegmentObserver).
    const Connection& first = engine().connections()[entry.firstConnection];
    if (afterSyn) {
        recordSyn(pool, first.client.port, first.firstFrame, first.firstTsNs);
    }
    pool.portsInUse.add(first.firstTsNs, +1);
    if (afterSyn) {
        pool.inUseAfterLastSyn = pool.portsInUse.value();
    }
    if (entry.clientCloseTsNs != kNoTime) {
        countClientClose(pool, poolIndex, entry.clientCloseTsNs);
    }
    if (entry.releaseTsNs != kNoTime) {
        pool.portsInUse.add(entry.releaseTsNs, -1);
    }
    return pool;
}

void PortExhaustionDetector::PortSet::insert(uint16_t port) {
    if (!more_) {
        if (contains(port)) {
            return;
        }
        if (inlineCount_ < kInlinePorts) {
            inline_[inlineCount_++] = port;
            return;
        }
        more_ = std::make_unique<absl::flat_hash_set<uint16_t>>(inline_.begin(), inline_.end());
    }
    more_->insert(port);
}

PortExhaustionDetector::Strain& PortExhaustionDetector::strainOf(Pool& pool) {
    if (!pool.strain) {
        pool.strain = std::make_unique<Strain>();
    }
    return *pool.strain;
}

uint32_t PortExhaustionDetector::rangePorts() const {
    return static_cast<uint32_t>(options().portRangeHigh) - options().portRangeLow + 1;
}

uint32_t PortExhaustionDetector::observedRangePorts(const Pool& pool) {
    return pool.ports.empty() ? 0 : static_cast<uint32_t>(pool.highestPort) - pool.lowestPort + 1;
}

void PortExhaustionDetector::expireUntil(int64_t nowNs) {
    while (!expiries_.empty() && expiries_.front().tsNs <= nowNs) {
        const Expiry expiry = expiries_.front();
        expiries_.pop_front();
        if (stateOf(expiry.connection).timeWait) {
            release(expiry.connection, expiry.tsNs);
        }
    }
}

void PortExhaustionDetector::acquire(uint32_t connection, int64_t tsNs) {
    ConnectionState& state = stateOf(connection);
    if (!state.inUse) {
        state.inUse = true;
        fullPool(state.pool).portsInUse.add(tsNs, +1);
    }
}

void PortExhaustionDetector::release(uint32_t connection, int64_t tsNs) {
    ConnectionState& state = stateOf(connection);
    state.timeWait = false;
    if (state.inUse) {
        state.inUse = false;
        PoolEntry& entry = pools_[state.pool];
        if (entry.compact()) {
            entry.releaseTsNs = tsNs;  // its one connection was acquired once: taking the port again builds the Pool
        } else {
            fullPools_[entry.full].portsInUse.add(tsNs, -1);
        }
    }
}

void PortExhaustionDetector::onSegment(const SegmentEvent& event) {
    const TcpSegment& segment = event.segment;
    const ConnectionSnapshot& connection = event.connection;
    expire(event.tsNs);
    // Only a connection's first segment, a SYN, a FIN or a RST changes what a pool holds.
    const bool firstSegment = event.frame == connection.firstFrame;
    if (!firstSegment && (segment.flags & (tcpflag::kSyn | tcpflag::kFin | tcpflag::kRst)) == 0) {
        return;
    }
    ConnectionState& state = stateOf(connection.id);
    if (firstSegment) {
        onFirstSegment(event, state);
        return;
    }
    if ((segment.flags & tcpflag::kRst) != 0) {
        state.aborted = true;
        release(connection.id, event.tsNs);
        return;
    }
    if (isPlainSyn(segment) && state.aborted) {
        state.aborted = false;  // the SYN is sent again after a failed handshake: the port is held again
        acquire(connection.id, event.tsNs);
        return;
    }
    // The second FIN: if the client closed first, it keeps the port in TIME_WAIT.
    const bool firstFinOfSender =
        (segment.flags & tcpflag::kFin) != 0 && connection.from(event.sender).firstFinFrame == event.frame;
    if (firstFinOfSender && connection.from(otherSide(event.sender)).sawFin && !state.aborted && state.inUse) {
        if (connection.hasActiveCloser && connection.activeCloser == Side::Client) {
            onClientClose(connection.id, state.pool, event.tsNs);
        } else {
            release(connection.id, event.tsNs);
        }
    }
}

void PortExhaustionDetector::onFirstSegment(const SegmentEvent& event, ConnectionState& state) {
    const ConnectionSnapshot& connection = event.connection;
    bool isNew = false;
    state.pool = poolIndexOf(connection, event.frame, isNew);
    if (isNew) {
        // A compact pool: the connection holds its port from now on. An earlier generation of
        // its tuple belongs to another pool (the roles were the other way round).
        pools_[state.pool].full = isPlainSyn(event.segment) ? kCompactAfterSyn : kCompactWithoutSyn;
        if (connection.reusedFrom != kNoConnection) {
            release(connection.reusedFrom, event.tsNs);
        }
        state.inUse = true;
        return;
    }
    Pool& pool = fullPool(state.pool);
    // The new generation of a tuple takes over the port its earlier generation held.
    if (connection.reusedFrom != kNoConnection) {
        release(connection.reusedFrom, event.tsNs);
    }
    if (isPlainSyn(event.segment)) {
        onNewSyn(event, pool, state.pool);
    } else {
        acquire(connection.id, event.tsNs);  // a connection already open when the capture started
    }
}

void PortExhaustionDetector::onNewSyn(const SegmentEvent& event, Pool& pool, uint32_t poolIndex) {
    const uint16_t port = event.connection.client.port;
    const auto minPauseNs = static_cast<int64_t>(options().portPauseMinShare * options().timeWaitSeconds * 1e9);
    if (pool.lastSynTsNs != kNoTime && event.tsNs - pool.lastSynTsNs >= minPauseNs) {
        const uint32_t observed = observedRangePorts(pool);
        const auto nearFull = static_cast<int64_t>(std::ceil(kNearFullShare * observed));
        const int64_t minPorts = std::max<int64_t>(options().portExhaustionMinPorts, nearFull);
        if (pool.inUseAfterLastSyn >= minPorts && pool.ports.contains(port)) {
            Pause pause;
            pause.startTsNs = pool.lastSynTsNs;
            pause.endTsNs = event.tsNs;
            pause.lastSynFrame = pool.lastSynFrame;
            pause.nextSynFrame = event.frame;
            pause.reusedPort = port;
            pause.portsInUse = pool.inUseAfterLastSyn;
            pause.observedRangePorts = observed;
            Strain& strain = strainOf(pool);
            strain.pausedNs += pause.endTsNs - pause.startTsNs;
            strain.waits.add(kNoConnection, pause.startTsNs, pause.endTsNs);
            if (strain.pauses.size() < kMaxListedPauses) {
                strain.pauses.push_back(pause);
            }
            refreshError(poolIndex, event.tsNs);
        }
    }
    recordSyn(pool, port, event.frame, event.tsNs);
    acquire(event.connection.id, event.tsNs);
    pool.inUseAfterLastSyn = pool.portsInUse.value();
}

void PortExhaustionDetector::recordSyn(Pool& pool, uint16_t port, uint32_t frame, int64_t tsNs) {
    pool.ports.insert(port);
    pool.lowestPort = std::min(pool.lowestPort, port);
    pool.highestPort = std::max(pool.highestPort, port);
    ++pool.connections;
    if (pool.firstSynTsNs == kNoTime) {
        pool.firstSynTsNs = tsNs;
    }
    pool.lastSynTsNs = tsNs;
    pool.lastSynFrame = frame;
}

void PortExhaustionDetector::onClientClose(uint32_t connection, uint32_t poolIndex, int64_t tsNs) {
    const auto timeWaitNs = static_cast<int64_t>(options().timeWaitSeconds * 1e9);
    stateOf(connection).timeWait = true;
    expiries_.push_back({tsNs + timeWaitNs, connection});
    PoolEntry& entry = pools_[poolIndex];
    // A compact pool's one close gives a rate of at most 1/s (over at least 1 s), which fills
    // TIME_WAIT's length in ports only if the range is smaller than that.
    if (entry.compact() && entry.clientCloseTsNs == kNoTime && rangePorts() > options().timeWaitSeconds) {
        entry.clientCloseTsNs = tsNs;
        return;
    }
    countClientClose(fullPool(poolIndex), poolIndex, tsNs);
}

void PortExhaustionDetector::countClientClose(Pool& pool, uint32_t poolIndex, int64_t tsNs) {
    const auto timeWaitNs = static_cast<int64_t>(options().timeWaitSeconds * 1e9);
    ++pool.clientCloses;
    pool.recentTimeWaits.push_back(tsNs);
    while (pool.recentTimeWaits.front() <= tsNs - timeWaitNs) {
        pool.recentTimeWaits.pop_front();
    }
    // The rate of ports going into TIME_WAIT, over the last TIME_WAIT length (or since the first
    // connection, if that is shorter): at this rate, how many ports does one TIME_WAIT length need?
    const int64_t firstNs = pool.firstSynTsNs != kNoTime ? pool.firstSynTsNs : tsNs;
    const int64_t windowNs = std::min(timeWaitNs, tsNs - firstNs);
    if (windowNs < kMinRateWindowNs) {
        return;
    }
    const double rate = static_cast<double>(pool.recentTimeWaits.size()) / seconds(windowNs);
    if (rate > pool.peakCloseRate) {
        pool.peakCloseRate = rate;
        pool.peakCloseRateWindowNs = windowNs;
        if (rate * options().timeWaitSeconds >= rangePorts()) {
            refreshWarning(poolIndex, tsNs);
        }
    }
}

nlohmann::json PortExhaustionDetector::poolEvidence(const Pool& pool, int64_t nowNs) const {
    const double timeWait = options().timeWaitSeconds;
    const uint32_t observed = observedRangePorts(pool);
    return {
        {"client", pool.key.client.toString()},
        {"server", pool.key.server.toString()},
        {"connections", pool.connections},
        {"client_closes_first", pool.clientCloses},
        {"distinct_ports", pool.ports.size()},
        {"observed_port_range", fmt::format("{}-{}", pool.lowestPort, pool.highestPort)},
        {"observed_range_ports", observed},
        {"observed_capacity_per_s", rounded(observed / timeWait, 0.01)},
        {"port_range", fmt::format("{}-{}", options().portRangeLow, options().portRangeHigh)},
        {"port_range_given", options().portRangeGiven},
        {"capacity_per_s", rounded(rangePorts() / timeWait, 0.1)},
        {"time_wait_s", timeWait},
        {"peak_ports_in_use", pool.portsInUse.peak()},
        {"peak_ports_in_use_at_s", rounded(seconds(pool.portsInUse.peakTsNs() - pool.portsInUse.startTsNs()), 0.001)},
        {"peak_rate_per_s", rounded(pool.peakCloseRate, 0.1)},
        {"peak_rate_window_s", rounded(seconds(pool.peakCloseRateWindowNs), 0.001)},
        {"series", pool.portsInUse.points(pool.portsInUse.startTsNs(), nowNs, kMaxSeriesPoints)},
        {"series_step_s", pool.portsInUse.pointSeconds(nowNs, kMaxSeriesPoints)}};
}

// A pool's findings are written from its record when they are read (describe); here they only
// learn that they changed, and until when their series run. Records: pool index * 2, + 1 for
// the warning.
void PortExhaustionDetector::refresh(PoolFinding& made, Severity severity, int64_t startTsNs, uint32_t record,
                                     int64_t nowNs) {
    if (!made.made) {
        Finding finding;
        finding.kind = FindingKind::PortExhaustion;
        finding.severity = severity;
        finding.connection = kNoConnection;
        finding.tsNs = startTsNs;
        const PoolKey& key = fullPool(record / 2).key;
        finding.parties = {key.client.toString(), key.server.toString()};
        made.id = log().add(std::move(finding), this, record);
        made.made = true;
    }
    made.seriesEndNs = nowNs;
    log().changed(made.id);
}

void PortExhaustionDetector::refreshError(uint32_t poolIndex, int64_t nowNs) {
    Strain& strain = strainOf(fullPool(poolIndex));
    refresh(strain.error, Severity::Error, strain.pauses.front().startTsNs, poolIndex * 2, nowNs);
}

void PortExhaustionDetector::refreshWarning(uint32_t poolIndex, int64_t nowNs) {
    Pool& pool = fullPool(poolIndex);
    refresh(strainOf(pool).warning, Severity::Warning, pool.firstSynTsNs, poolIndex * 2 + 1, nowNs);
}

// The evidence is written whatever the detail: a port pool makes at most two findings.
void PortExhaustionDetector::describe(uint32_t record, Finding& finding, Detail /*detail*/) const {
    const Pool& pool = fullPool(record / 2);
    if (record % 2 == 0) {
        describeError(pool, finding);
    } else {
        describeWarning(pool, finding);
    }
}

void PortExhaustionDetector::measure(uint32_t record, Finding& finding) const {
    if (record % 2 == 0) {  // the warning's duration is set when it is made
        measureError(fullPool(record / 2), finding);
    }
}

void PortExhaustionDetector::measureError(const Pool& pool, Finding& finding) {
    finding.durationMs = rounded(static_cast<double>(pool.strain->pausedNs) / 1e6, 0.001);
    setImpact(finding, pool.strain->waits);
}

void PortExhaustionDetector::describeError(const Pool& pool, Finding& finding) const {
    const Strain& strain = *pool.strain;
    measureError(pool, finding);
    finding.frames.clear();
    finding.spans.clear();
    finding.totalSpans = static_cast<uint32_t>(strain.waits.size());
    finding.server = pool.key.server;
    nlohmann::json pauses = nlohmann::json::array();
    for (const Pause& pause : strain.pauses) {
        finding.frames.push_back(pause.lastSynFrame);
        finding.frames.push_back(pause.nextSynFrame);
        finding.spans.push_back(
            {.startNs = pause.startTsNs, .endNs = pause.endTsNs, .frames = {{FrameRole::LastSynBeforePause, pause.lastSynFrame}, {FrameRole::NextSyn, pause.nextSynFrame}}});
        pauses.push_back({{"start_s", rounded(seconds(pause.startTsNs - finding.tsNs), 0.001)},
                          {"pause_ms", rounded(static_cast<double>(pause.endTsNs - pause.startTsNs) / 1e6, 0.001)},
                          {"last_syn_frame", pause.lastSynFrame},
                          {"next_syn_frame", pause.nextSynFrame},
                          {"reused_port", pause.reusedPort},
                          {"ports_in_use", pause.portsInUse},
                          {"observed_range_ports", pause.observedRangePorts}});
    }
    finding.evidence = poolEvidence(pool, strain.error.seriesEndNs);
    finding.evidence["pauses"] = pauses;
    finding.evidence["pause_count"] = strain.pauses.size();
    finding.evidence["paused_ms"] = finding.durationMs;

    const Pause& first = strain.pauses.front();
    const uint32_t observed = observedRangePorts(pool);
    const std::string pausesText =
        strain.pauses.size() == 1
            ? fmt::format("for {:.1f} s", seconds(first.endTsNs - first.startTsNs))
            : fmt::format("{} times, {:.1f} s in all", strain.pauses.size(), seconds(strain.pausedNs));
    const bool sameRange = pool.lowestPort == options().portRangeLow && pool.highestPort == options().portRangeHigh;
    const std::string otherRange = sameRange
                                       ? std::string()
                                       : fmt::format(" ({}-{} would give {:.0f}/s)", options().portRangeLow,
                                                     options().portRangeHigh, rangePorts() / options().timeWaitSeconds);
    finding.summary = fmt::format(
        "{} -> {}: the client ran out of ephemeral ports: {} ports ({}-{} seen) were open or in the client's "
        "TIME_WAIT, and no new connection started {} until TIME_WAIT ({:g} s) freed the same ports again; that range "
        "sustains only {:.1f} connections/s{}; fix: {}.",
        pool.key.client.toString(), pool.key.server.toString(), first.portsInUse, pool.lowestPort, pool.highestPort,
        pausesText, options().timeWaitSeconds, observed / options().timeWaitSeconds, otherRange, kRemedies);
}

void PortExhaustionDetector::describeWarning(const Pool& pool, Finding& finding) const {
    const Strain& strain = *pool.strain;
    finding.server = pool.key.server;
    finding.evidence = poolEvidence(pool, strain.warning.seriesEndNs);
    const double capacity = rangePorts() / options().timeWaitSeconds;
    const double secondsToExhaust = static_cast<double>(rangePorts()) / std::max(pool.peakCloseRate, 1e-9);
    finding.evidence["seconds_to_exhaust"] = rounded(secondsToExhaust, 0.1);
    finding.summary = fmt::format(
        "{} -> {}: the client closes connections first at {:.0f}/s (over {:.1f} s), and each keeps its source port "
        "in TIME_WAIT for {:g} s: the {}-port range {}-{} sustains only {:.0f}/s and runs out after about {:.0f} s "
        "at this rate, after which connect() fails until ports come back; fix: {}.",
        pool.key.client.toString(), pool.key.server.toString(), pool.peakCloseRate, seconds(pool.peakCloseRateWindowNs),
        options().timeWaitSeconds, rangePorts(), options().portRangeLow, options().portRangeHigh, capacity,
        secondsToExhaust, kRemedies);
}

void PortExhaustionDetector::onEnd(int64_t lastTsNs) {
    expire(lastTsNs);
    // A compact pool has neither findings nor two ports in use at once; the others have a full pool,
    // and those that held two ports at once a series on the chart.
    size_t charted = 0;
    for (uint32_t index = 0; index < pools_.size(); ++index) {
        charted += !pools_[index].compact() && fullPool(index).portsInUse.peak() >= 2 ? 1 : 0;
    }
    log().reservePopulations(charted);
    for (uint32_t index = 0; index < pools_.size(); ++index) {
        if (pools_[index].compact()) {
            continue;
        }
        const Pool& pool = fullPool(index);
        if (pool.strain && pool.strain->error.made) {
            refreshError(index, lastTsNs);
        }
        if (pool.strain && pool.strain->warning.made) {
            refreshWarning(index, lastTsNs);
        }
        if (pool.strain) {
            if (std::optional<HostPopulation> population = populationOf(pool, pool.portsInUse)) {
                log().addPopulation(std::move(*population));
            }
        } else {  // no finding to describe: what it counted was for the chart, and its series goes there
            Pool& counted = fullPools_[pools_[index].full];
            if (std::optional<HostPopulation> population = populationOf(counted, std::move(counted.portsInUse))) {
                log().addPopulation(std::move(*population));
            }
            counted.portsInUse = {};
            counted.ports = {};
            counted.recentTimeWaits = {};
        }
    }
    // The findings are described from the strained pools (found through pools_): the rest goes first.
    states_.clear();
    expiries_ = {};
    poolIndex_ = decltype(poolIndex_){0, PoolSlotHash{}, PoolSlotEq{this}};
}

std::optional<HostPopulation> PortExhaustionDetector::populationOf(const Pool& pool, PopulationSeries series) const {
    if (series.peak() < 2) {
        return std::nullopt;  // one port at a time says nothing on a chart; thousands of such pools would cost memory
    }
    HostPopulation population = aboutPool(pool);
    population.series = std::move(series);
    population.series.shrinkToFit();
    return population;
}

HostPopulation PortExhaustionDetector::aboutPool(const Pool& pool) const {
    HostPopulation population = HostPopulation::of(HostPopulation::Kind::PortsInUse, pool.key.client, options(), {});
    population.server = pool.key.server;
    if (!pool.ports.empty()) {
        population.observedLowPort = pool.lowestPort;
        population.observedHighPort = pool.highestPort;
    }
    return population;
}

void PortExhaustionDetector::addPopulationsOf(const IpAddress& host, std::vector<HostPopulation>& populations) const {
    for (uint32_t index = 0; index < pools_.size(); ++index) {
        if (pools_[index].compact()) {
            continue;
        }
        const Pool& pool = fullPool(index);
        if (pool.key.client == host && pool.portsInUse.peak() >= 2) {
            if (std::optional<HostPopulation> population = populationOf(pool, pool.portsInUse)) {
                populations.push_back(std::move(*population));
            }
        }
    }
}

void PortExhaustionDetector::visitAllPopulations(const PopulationVisitor& visit) const {
    for (uint32_t index = 0; index < pools_.size(); ++index) {
        if (!pools_[index].compact() && fullPool(index).portsInUse.peak() >= 2) {  // as populationOf
            const Pool& pool = fullPool(index);
            visit(aboutPool(pool), pool.portsInUse);
        }
    }
}

void PortExhaustionDetector::onRetire(const Connection& connection) {
    // A port still in TIME_WAIT has its expiry queued under this id; the retirement age is longer
    // than TIME_WAIT, so this keeps a state only if the ages are set otherwise.
    if (!stateOf(connection.id).timeWait) {
        states_.release(connection.id);
    }
}

}  // namespace tcpscope
