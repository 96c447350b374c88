#include "live/live_records.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "detect/detector_set.hpp"
#include "records/finding_record.hpp"
#include "records/flow_record.hpp"
#include "records/series_records.hpp"
#include "report/time_lost.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kSecondNs = 1'000'000'000;
// Records are made at most once a second: a finding's revisions, the flows that ended, the seconds
// of the series that are over.
constexpr std::chrono::seconds kPassInterval{1};
// A closed connection's flow record waits this long (capture time) for the last ACK of its FIN.
constexpr int64_t kFlowSettleNs = 2 * kSecondNs;
// A second of a series is sent once the capture clock is this far past its end (packets reach the
// analysis a little after their time).
constexpr int64_t kSeriesSettleNs = kSecondNs;

bool ended(const Connection& connection) {
    return connection.state == ConnectionState::Closed || connection.state == ConnectionState::Reset;
}

}  // namespace

LiveRecords::LiveRecords(RecordSource source, RecordSink& sink)
    : source_(std::make_shared<const RecordSource>(std::move(source))), sink_(sink) {}

void LiveRecords::write(RecordType type, int64_t tsNs, std::function<std::string()> makeLine) {
    pending_.push_back({type, tsNs, std::move(makeLine)});
    ++counts_.byType[static_cast<size_t>(type)];
}

void LiveRecords::handOver() {
    if (!pending_.empty()) {
        sink_.writeLater(std::exchange(pending_, {}));
    }
}

void LiveRecords::onSegment(const SegmentEvent& event) {
    if ((event.segment.flags & (tcpflag::kFin | tcpflag::kRst)) == 0) {
        return;
    }
    const uint32_t id = event.connection.id;
    if (id >= flows_.size()) {
        flows_.resize(id + 1, FlowState::Open);
    }
    if (flows_[id] == FlowState::Open) {
        flows_[id] = FlowState::MayHaveEnded;
        endingFlows_.push_back(id);
    }
}

void LiveRecords::onRetire(const Connection& connection) {
    // No segment of it comes again: its record goes out at the next pass, whatever its state.
    if (connection.id >= flows_.size()) {
        flows_.resize(connection.id + 1, FlowState::Open);
    }
    FlowState& state = flows_[connection.id];
    if (state == FlowState::Open) {
        endingFlows_.push_back(connection.id);
    }
    if (state != FlowState::Sent) {
        state = FlowState::Retired;
    }
}

void LiveRecords::onTick(const LiveResults& results) {
    const auto now = std::chrono::steady_clock::now();
    if (now - lastPass_ < kPassInterval) {
        return;
    }
    lastPass_ = now;
    sendFindings(results, false);
    sendFlows(results, false);
    const int64_t clockNs = results.engine.clockNs();
    const int64_t completeUntilNs = utcSecondOf(clockNs - kSeriesSettleNs) * kSecondNs;
    countNewConnections(results.engine.connections());
    sendRates(completeUntilNs);
    results.detectors.visitAllPopulations([&](const HostPopulation& about, const PopulationSeries& series) {
        sendPopulation(about, series, clockNs, completeUntilNs);
    });
    handOver();
}

void LiveRecords::onFinished(const LiveResults& results) {
    sendFindings(results, true);
    sendFlows(results, true);
    countNewConnections(results.engine.connections());
    sendRates(INT64_MAX);
    handOver();
}

void LiveRecords::finishSeries(const CaptureAnalysis& analysis) {
    for (const HostPopulation& population : analysis.populations) {
        sendPopulation(population, population.series, analysis.engine->lastTsNs(), INT64_MAX);
    }
    handOver();
}

void LiveRecords::sendFindings(const LiveResults& results, bool atEnd) {
    // Described as they are now; the evidence goes with a final revision only (sendFinding).
    const FindingStore& findings = atEnd ? results.findings() : results.findingsButEvidence();
    const ConnectionStore& connections = results.engine.connections();
    findings_.resize(findings.size());
    for (const Finding& finding : findings) {
        SentFinding& sent = findings_[finding.id];
        if (sent.closed || (finding.summary.empty() && !finding.withdrawn)) {
            continue;
        }
        // The end takes back a finding still provisional (FindingLog::release): say so, as for one
        // the packets withdrew, if it was ever sent.
        if (finding.withdrawn || (atEnd && finding.provisional)) {
            if (sent.sent) {
                Finding withdrawn = finding;
                withdrawn.withdrawn = true;
                withdrawn.ongoing = false;
                sendFinding(withdrawn, connections, sent, true);
            }
            sent.closed = true;
            continue;
        }
        const bool grew = !sent.sent || finding.totalSpans != sent.spans ||
                          finding.impact.delayedRequests != sent.requests ||
                          finding.impact.connections != sent.connections ||
                          std::abs(finding.durationMs - sent.durationMs) >= 1.0 || finding.ongoing != sent.ongoing ||
                          finding.provisional != sent.provisional || finding.severity != sent.severity;
        if (atEnd || grew) {
            sendFinding(finding, connections, sent, atEnd);
        }
    }
}

void LiveRecords::sendFinding(const Finding& finding, const ConnectionStore& connections, SentFinding& sent,
                              bool final) {
    const FindingRevision revision{sent.sent ? sent.revision + 1 : 0, final};
    const Connection* flow = finding.connection < connections.size() ? &connections[finding.connection] : nullptr;
    // A live capture reads no strace log and has one point: nothing enriches its findings. The
    // evidence goes with the final revision only: copying it at every revision cost the
    // analysis more than the rest of the records together (docs/records.md, "Revisions").
    write(RecordType::Finding, finding.tsNs,
          [source = source_, parts = findingRecordParts(finding, FindingEnrichments::none(), flow, final), revision] {
              return findingRecord(*source, parts, revision);
          });
    sent = {true,
            final,
            revision.revision,
            finding.totalSpans,
            finding.impact.delayedRequests,
            finding.impact.connections,
            finding.durationMs,
            finding.ongoing,
            finding.provisional,
            finding.severity};
}

void LiveRecords::sendFlows(const LiveResults& results, bool atEnd) {
    const ConnectionStore& connections = results.engine.connections();
    flows_.resize(std::max(flows_.size(), connections.size()), FlowState::Open);
    std::vector<uint32_t> ready;
    if (atEnd) {
        for (uint32_t id = 0; id < connections.size(); ++id) {
            if (flows_[id] != FlowState::Sent) {
                ready.push_back(id);
            }
        }
        endingFlows_.clear();
    } else {
        const int64_t clockNs = results.engine.clockNs();
        size_t kept = 0;
        for (const uint32_t id : endingFlows_) {
            const Connection& connection = connections[id];
            if (flows_[id] == FlowState::Retired || (ended(connection) && clockNs - connection.lastTsNs >= kFlowSettleNs)) {
                ready.push_back(id);
            } else {
                endingFlows_[kept++] = id;
            }
        }
        endingFlows_.resize(kept);
    }
    if (ready.empty()) {
        return;
    }
    // The time their findings cost so far, as the report's flows count it (withdrawn ones left out):
    // timeLost[i] is ready[i]'s, found by a binary search (most flows have no finding).
    std::sort(ready.begin(), ready.end());
    std::vector<TimeLostByKind> timeLost(ready.size());
    for (const Finding& finding : atEnd ? results.findings() : results.findingsButEvidence()) {
        if (finding.withdrawn || (atEnd && finding.provisional)) {
            continue;
        }
        if (const auto found = std::lower_bound(ready.begin(), ready.end(), finding.connection);
            found != ready.end() && *found == finding.connection) {
            timeLost[found - ready.begin()][std::string(findingKindName(finding.kind))] += finding.durationMs;
        }
    }
    for (size_t at = 0; at < ready.size(); ++at) {
        const Connection& connection = connections[ready[at]];
        write(RecordType::Flow, connection.firstTsNs,
              [source = source_, connection, lost = std::move(timeLost[at])] {
                  return flowRecord(*source, connection, lost);
              });
        flows_[ready[at]] = FlowState::Sent;
    }
}

void LiveRecords::countNewConnections(const ConnectionStore& connections) {
    for (; countedConnections_ < connections.size(); ++countedConnections_) {
        const Connection& connection = connections[countedConnections_];
        if (countsInConnectionRate(connection)) {
            ++rates_[{connection.server, utcSecondOf(connection.firstTsNs)}];
        }
    }
}

void LiveRecords::sendRates(int64_t completeUntilNs) {
    for (auto rate = rates_.begin(); rate != rates_.end();) {
        const int64_t startNs = rate->first.second * kSecondNs;
        if (completeUntilNs != INT64_MAX && startNs + kSecondNs > completeUntilNs) {
            ++rate;
            continue;
        }
        const SeriesKey key{"connection_rate", std::string(), rate->first.first.toString(), std::string()};
        write(RecordType::Series, startNs, [source = source_, key, slot = SeriesSlot{startNs, 1, rate->second}] {
            return seriesRecord(*source, key, slot, 0);
        });
        rate = rates_.erase(rate);
    }
}

void LiveRecords::sendPopulation(const HostPopulation& about, const PopulationSeries& series, int64_t endTsNs,
                                 int64_t completeUntilNs) {
    int64_t& sentUntilNs =
        seriesSentUntilNs_.try_emplace({about.kind, about.host, about.role, about.server}, INT64_MIN).first->second;
    const std::vector<SeriesSlot> slots = populationSlots(series, endTsNs, sentUntilNs);
    if (slots.empty()) {
        return;
    }
    const auto key = std::make_shared<const SeriesKey>(seriesKeyOf(about));  // shared by its rows
    const uint32_t capacity = seriesCapacityOf(about);
    for (const SeriesSlot& slot : slots) {
        const int64_t slotEndNs = slot.startNs + int64_t{slot.intervalSeconds} * kSecondNs;
        // A series made coarser since may have a slot over seconds already sent: it is sent again
        // (a series' value is a highest count, so a second sent twice counts once).
        if (slotEndNs <= sentUntilNs || (completeUntilNs != INT64_MAX && slotEndNs > completeUntilNs)) {
            continue;
        }
        write(RecordType::Series, slot.startNs,
              [source = source_, key, slot, capacity] { return seriesRecord(*source, *key, slot, capacity); });
        sentUntilNs = slotEndNs;
    }
}

}  // namespace tcpscope
