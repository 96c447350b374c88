#include "detect/detector_set.hpp"

#include <utility>

#include "detect/capture_quality_detector.hpp"
#include "detect/delayed_ack_detector.hpp"
#include "detect/port_exhaustion_detector.hpp"
#include "detect/port_reuse_detector.hpp"
#include "detect/retransmission_stall_detector.hpp"
#include "detect/syn_backlog_detector.hpp"
#include "detect/syn_unanswered_detector.hpp"
#include "detect/time_wait_detector.hpp"
#include "detect/timestamp_clocks.hpp"
#include "detect/zero_window_stall_detector.hpp"

namespace tcpscope {

// The detectors as members of one observer. Each call names the detector's own class (a qualified
// call), so it is a direct call the compiler can inline, never a virtual one. The order is the order
// findings were always made in.
struct DetectorSet::Detectors final : SegmentObserver {
    Detectors(AnalysisEngine& engine, const DetectorOptions& options, FindingLog& log)
        : delayedAck(engine, options, log),
          portReuse(engine, options, log),
          timeWait(engine, options, log),
          portExhaustion(engine, options, log),
          synBacklog(engine, options, log),
          retransmissionStall(engine, options, log),
          zeroWindowStall(engine, options, log),
          synUnanswered(engine, options, log),
          captureQuality(engine, options, log) {
        retransmissionStall.useClocks(&clocks);
        captureQuality.useClocks(&clocks);
    }

    template <typename Self, typename Call>
    static void forEach(Self& self, Call&& call) {
        call(self.delayedAck);
        call(self.portReuse);
        call(self.timeWait);
        call(self.portExhaustion);
        call(self.synBacklog);
        call(self.retransmissionStall);
        call(self.zeroWindowStall);
        call(self.synUnanswered);
        call(self.captureQuality);
    }

    void onSegment(const SegmentEvent& event) override {
        clocks.prefetch(event);
        forEach(*this, [&event]<typename Type>(Type& detector) {
            if constexpr (requires { detector.Type::prefetch(event); }) {
                detector.Type::prefetch(event);
            }
        });
        clocks.onSegment(event);  // before the detectors that read it
        forEach(*this, [&event]<typename Type>(Type& detector) { detector.Type::onSegment(event); });
    }
    void onPacketTooBig(const PacketTooBigEvent& event) override { retransmissionStall.onPacketTooBig(event); }
    void onUnreachable(const UnreachableEvent& event) override { synUnanswered.onUnreachable(event); }
    void onClock(int64_t nowNs) override {
        forEach(*this, [nowNs]<typename Type>(Type& detector) { detector.Type::onClock(nowNs); });
    }
    void onEnd(int64_t lastTsNs) override {
        forEach(*this, [lastTsNs]<typename Type>(Type& detector) { detector.Type::onEnd(lastTsNs); });
        clocks.onEnd();
    }
    void onRetire(const Connection& connection) override {
        forEach(*this, [&connection]<typename Type>(Type& detector) { detector.Type::onRetire(connection); });
        clocks.onRetire(connection.id);
    }

    TimestampClocks clocks;  // the capture's clock against the hosts' (read by the detectors that time)

    DelayedAckDetector delayedAck;
    PortReuseDetector portReuse;
    TimeWaitDetector timeWait;
    PortExhaustionDetector portExhaustion;
    SynBacklogDetector synBacklog;
    RetransmissionStallDetector retransmissionStall;
    ZeroWindowStallDetector zeroWindowStall;
    SynUnansweredDetector synUnanswered;
    CaptureQualityDetector captureQuality;
};

DetectorSet::DetectorSet(AnalysisEngine& engine, const DetectorOptions& options, FindingLog& log)
    : options_(options), detectors_(std::make_unique<Detectors>(engine, options_, log)) {
    engine.addObserver(detectors_.get());
}

DetectorSet::~DetectorSet() = default;

std::vector<HostPopulation> DetectorSet::populationsOf(const IpAddress& host) const {
    std::vector<HostPopulation> populations;
    Detectors::forEach(std::as_const(*detectors_), [&]<typename Type>(const Type& detector) {
        detector.Type::addPopulationsOf(host, populations);
    });
    return populations;
}

void DetectorSet::visitAllPopulations(const PopulationVisitor& visit) const {
    Detectors::forEach(std::as_const(*detectors_),
                       [&]<typename Type>(const Type& detector) { detector.Type::visitAllPopulations(visit); });
}

}  // namespace tcpscope
