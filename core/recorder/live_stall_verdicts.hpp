#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "finding/strace_verdict.hpp"
#include "live/live_analysis.hpp"
#include "recorded/recorded_call.hpp"

namespace tcpscope {

/// What the calls recorded so far say of one delayed_ack_stall finding of a live capture, given once
/// (LiveStallVerdicts): as the report says it of a finding, confirmed when a stall is, else refuted
/// when one is, else no trace (no recorded write carried the held bytes).
struct LiveStallVerdict {
    uint32_t findingId = 0;  ///< the live finding's id, as the finding listener heard it
    uint32_t connection = kNoConnection;
    int64_t findingTsNs = 0;  ///< when the finding started (finds it among the report's)
    StraceVerdictKind verdict = StraceVerdictKind::NoTrace;
    VerdictCounts counts;                ///< over the stalls ended by then
    std::optional<StraceVerdict> cited;  ///< the first stall with the verdict given (not for no trace)
    int64_t lastStallEndNs = 0;          ///< the end of the last stall judged, on the capture's clock
    int64_t judgedNs = 0;                ///< the capture's clock when it was given
};

/// The calls recorded so far on these connections, with the waits of their threads and the clock
/// relation (LiveCallRecording::callsOf).
using LiveCallSource = std::function<RecordedCalls(std::span<const ConnectionEnds> connections)>;

/// Gives each delayed_ack_stall finding of a live capture with --syscalls its verdict while the
/// capture runs, from the calls recorded around its stalls, with the alignment and the verdicts the
/// end-of-capture pass uses (alignCallsRecordedBeside, stallVerdicts). At a tick of the capture
/// clock, once a stall ended `settle` ago (the recorder hands over its calls every 50 ms), one pass
/// reads the calls of the connections of the findings still waiting for a verdict, and gives each
/// its verdict once; never again after (the report's verdict, from every call, is revisedVerdicts').
/// A finding none of whose stalls a recorded write explains gets "no trace" `giveUp` after its
/// first stall ended. The cost of a pass grows with the calls of the stalled connections (not with
/// the whole recording); passes take at most `maxBusyShare` of the analysis thread's time.
class LiveStallVerdicts final : public LiveObserver {
public:
    struct Options {
        std::chrono::milliseconds settle{300};
        std::chrono::milliseconds giveUp{3000};
        double maxBusyShare = 0.1;
    };
    /// Called on the analysis thread with each verdict, once per finding.
    using Listener = std::function<void(const LiveStallVerdict& verdict)>;
    /// What the passes cost, for the report on the capture.
    struct Cost {
        uint32_t passes = 0;
        int64_t totalNs = 0;
        int64_t maxNs = 0;
        size_t mostCalls = 0;  ///< the most calls one pass aligned
    };

    LiveStallVerdicts(LiveCallSource calls, Listener onVerdict, Options options);
    LiveStallVerdicts(LiveCallSource calls, Listener onVerdict)
        : LiveStallVerdicts(std::move(calls), std::move(onVerdict), Options{}) {}

    void onSegment(const SegmentEvent& /*event*/) override {}
    void onTick(const LiveResults& results) override;
    void onFinished(const LiveResults& /*results*/) override {}

    /// The verdicts given, in the order given (read once the analysis has ended).
    [[nodiscard]] const std::vector<LiveStallVerdict>& verdicts() const { return verdicts_; }
    [[nodiscard]] const Cost& cost() const { return cost_; }

private:
    enum class State : uint8_t { Unseen, Waiting, Other, Judged };
    // The findings waiting for a verdict with a stall ended `settle` ago.
    std::vector<uint32_t> ready(const FindingLog& log, int64_t nowNs);
    void judge(const LiveResults& results, const std::vector<uint32_t>& ids, int64_t nowNs);

    LiveCallSource calls_;
    Listener onVerdict_;
    Options options_;
    std::vector<State> states_;  // [finding id]
    std::vector<LiveStallVerdict> verdicts_;
    std::chrono::steady_clock::time_point nextPass_;
    Cost cost_;
};

/// A verdict given live that the report gives otherwise: the report's, from every call recorded
/// until the end (some may have come after the live pass), is the one that stands.
struct RevisedVerdict {
    LiveStallVerdict live;
    StraceVerdictKind report = StraceVerdictKind::NoTrace;
};

/// The live verdicts that the end-of-capture pass (`analysis`: investigateRecordedCalls) does not
/// share, each found among its findings by flow and start.
std::vector<RevisedVerdict> revisedVerdicts(const std::vector<LiveStallVerdict>& live, const CaptureAnalysis& analysis);

}  // namespace tcpscope
