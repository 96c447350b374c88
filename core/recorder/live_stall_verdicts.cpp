#include "recorder/live_stall_verdicts.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>

#include "align/stall_confirmation.hpp"
#include "investigation/investigation.hpp"

namespace tcpscope {
namespace {

int64_t toNs(std::chrono::milliseconds duration) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(duration).count();
}

// The stalls of `finding` that ended `settleNs` before `nowNs`: the first `count` of its spans
// (the spans come in time order), and when the first of them ended.
struct Settled {
    size_t count = 0;
    int64_t firstEndNs = 0;
    int64_t lastEndNs = 0;
};

Settled settledStalls(const Finding& finding, int64_t nowNs, int64_t settleNs) {
    Settled settled;
    for (const FindingSpan& span : finding.spans) {
        if (!span.frames.of(FrameRole::HeldSegment) || span.endNs + settleNs > nowNs) {
            break;
        }
        if (settled.count == 0) {
            settled.firstEndNs = span.endNs;
        }
        settled.lastEndNs = span.endNs;
        ++settled.count;
    }
    return settled;
}

}  // namespace

LiveStallVerdicts::LiveStallVerdicts(LiveCallSource calls, Listener onVerdict, Options options)
    : calls_(std::move(calls)), onVerdict_(std::move(onVerdict)), options_(options) {}

std::vector<uint32_t> LiveStallVerdicts::ready(const FindingLog& log, int64_t nowNs) {
    states_.resize(log.size(), State::Unseen);
    std::vector<uint32_t> ids;
    for (uint32_t id = 0; id < states_.size(); ++id) {
        State& state = states_[id];
        if (state == State::Other || state == State::Judged || log.isWithdrawn(id) || log.isProvisional(id)) {
            continue;
        }
        const Finding& finding = log.butEvidence(id);
        if (finding.kind != FindingKind::DelayedAckStall || finding.connection == kNoConnection) {
            state = State::Other;
            continue;
        }
        if (finding.summary.empty()) {
            continue;  // not printed yet (FindingStream prints a finding once it has its summary)
        }
        state = State::Waiting;
        if (settledStalls(finding, nowNs, toNs(options_.settle)).count > 0) {
            ids.push_back(id);
        }
    }
    return ids;
}

void LiveStallVerdicts::onTick(const LiveResults& results) {
    const auto started = std::chrono::steady_clock::now();
    if (started < nextPass_) {
        return;
    }
    const int64_t nowNs = results.engine.clockNs();
    const std::vector<uint32_t> ids = ready(results.log, nowNs);
    if (ids.empty()) {
        return;
    }
    judge(results, ids, nowNs);
    // A pass may take longer as the stalled connections' calls grow: the next one waits for as
    // long as the share allows, so that the passes never take more of the thread than that.
    const auto took = std::chrono::steady_clock::now() - started;
    const int64_t tookNs = std::chrono::duration_cast<std::chrono::nanoseconds>(took).count();
    ++cost_.passes;
    cost_.totalNs += tookNs;
    cost_.maxNs = std::max(cost_.maxNs, tookNs);
    nextPass_ =
        started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(took * (1.0 / options_.maxBusyShare));
}

void LiveStallVerdicts::judge(const LiveResults& results, const std::vector<uint32_t>& ids, int64_t nowNs) {
    const ConnectionStore& connections = results.engine.connections();
    std::vector<ConnectionEnds> ends;
    for (const uint32_t id : ids) {
        const uint32_t connection = results.log.butEvidence(id).connection;
        if (connection < connections.size() && connections.holds(connection)) {
            ends.push_back({connections[connection].client, connections[connection].server});
        }
    }
    const RecordedCalls calls = calls_(ends);
    cost_.mostCalls = std::max(cost_.mostCalls, calls.calls.size());
    const std::optional<StraceAlignment> alignment = alignCallsRecordedBeside(results.engine, calls, "live");
    for (const uint32_t id : ids) {
        const Finding& finding = results.log.butEvidence(id);
        const Settled settled = settledStalls(finding, nowNs, toNs(options_.settle));
        std::vector<StraceVerdict> verdicts =
            alignment ? stallVerdicts(finding, *alignment, results.engine) : std::vector<StraceVerdict>{};
        verdicts.resize(std::min(verdicts.size(), settled.count));
        const VerdictCounts counts = countVerdicts(verdicts);
        if (findingVerdict(counts) == StraceVerdictKind::NoTrace &&
            settled.firstEndNs + toNs(options_.giveUp) > nowNs) {
            continue;  // the calls that explain it may still be on their way
        }
        LiveStallVerdict given;
        given.findingId = id;
        given.connection = finding.connection;
        given.findingTsNs = finding.tsNs;
        given.counts = counts;
        given.verdict = findingVerdict(counts);
        const auto cited = std::find_if(verdicts.begin(), verdicts.end(), [&given](const StraceVerdict& verdict) {
            return verdict.verdict == given.verdict;
        });
        if (given.verdict != StraceVerdictKind::NoTrace && cited != verdicts.end()) {
            given.cited = *cited;
        }
        given.lastStallEndNs = settled.lastEndNs;
        given.judgedNs = nowNs;
        states_[id] = State::Judged;
        verdicts_.push_back(given);
        if (onVerdict_) {
            onVerdict_(verdicts_.back());
        }
    }
}

std::vector<RevisedVerdict> revisedVerdicts(const std::vector<LiveStallVerdict>& live,
                                            const CaptureAnalysis& analysis) {
    std::vector<RevisedVerdict> revised;
    if (live.empty()) {
        return revised;
    }
    absl::flat_hash_map<std::pair<uint32_t, int64_t>, uint32_t> stalls;  // by flow and start: the report's id
    for (const Finding& finding : analysis.findings) {
        if (finding.kind == FindingKind::DelayedAckStall) {
            stalls.try_emplace(std::pair{finding.connection, finding.tsNs}, finding.id);
        }
    }
    for (const LiveStallVerdict& given : live) {
        const auto found = stalls.find(std::pair{given.connection, given.findingTsNs});
        if (found == stalls.end()) {
            continue;
        }
        const StraceVerdictKind report =
            findingVerdict(countVerdicts(analysis.enrichments.of(found->second).straceVerdicts));
        if (report != given.verdict) {
            revised.push_back({given, report});
        }
    }
    return revised;
}

}  // namespace tcpscope
