#include "points/point_analysis.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <system_error>

#include "analysis/analysis_release.hpp"
#include "capture/capture_error.hpp"
#include "capture/capture_reader.hpp"
#include "decode/packet_decoder.hpp"
#include "engine/frame_driver.hpp"
#include "engine/input_summary_count.hpp"
#include "points/connection_vantage.hpp"
#include "points/hop_attribution.hpp"
#include "points/point_segments.hpp"
#include "points/segment_matching.hpp"

namespace tcpscope {
namespace {

// One file of one point, read a second time with its frame ready, its time on the reference clock.
struct PointInput {
    std::unique_ptr<CaptureReader> reader;
    uint32_t point = 0;
    RawPacket pending;
    bool hasPending = false;
    int64_t referenceTsNs = 0;
    InputSummary summary;
};

// What the load has to read: every file twice (segments to match, then frames to analyse).
uint64_t bytesToRead(const std::vector<CapturePoint>& points) {
    uint64_t total = 0;
    for (const CapturePoint& point : points) {
        for (const std::string& path : point.files) {
            std::error_code error;
            const auto size = std::filesystem::file_size(path, error);
            total += error ? 0 : 2 * static_cast<uint64_t>(size);
        }
    }
    return total;
}

void advance(PointInput& input, const PointClock& clock) {
    input.hasPending = input.reader->next(input.pending);
    if (!input.hasPending) {
        return;
    }
    input.referenceTsNs = clock.toReferenceNs(input.pending.tsNs);
    countFrame(input.summary, input.pending.linkType);
}

void closeOut(PointInput& input) {
    closeSummary(input.summary, *input.reader);
}

// The input whose pending frame comes first on the reference clock (ties: the one given first).
PointInput* earliestInput(std::vector<PointInput>& inputs, uint32_t& index) {
    PointInput* earliest = nullptr;
    for (uint32_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i].hasPending && (earliest == nullptr || inputs[i].referenceTsNs < earliest->referenceTsNs)) {
            earliest = &inputs[i];
            index = i;
        }
    }
    return earliest;
}

// The frames of every point, merged on the reference clock, those of each connection only from its
// vantage point, with their reference times, as the frame driver takes them. Frames that are no TCP
// segment (nor an ICMP message about one) are all taken: they are only counted. Notes each frame
// taken in the sightings, and the segments analysed in the points' summaries.
class VantageFrames final : public FrameSource {
public:
    VantageFrames(std::vector<PointInput>& inputs, const std::vector<PointClock>& clocks,
                  const absl::flat_hash_map<FlowKey, uint32_t>& vantage, std::vector<PointSummary>& summaries,
                  PointSightings& sightings, uint64_t bytesBefore)
        : inputs_(inputs),
          clocks_(clocks),
          vantage_(vantage),
          summaries_(summaries),
          sightings_(sightings),
          bytesBefore_(bytesBefore) {}

    size_t decodeNext(const AnalysisEngine& engine, std::span<PreparedFrame> frames) override {
        size_t count = 0;
        while (count < frames.size()) {
            uint32_t index = 0;
            PointInput* earliest = earliestInput(inputs_, index);
            if (earliest == nullptr) {
                break;
            }
            PreparedFrame& frame = frames[count];
            engine.decode(onReferenceClock(*earliest), index, frame);
            if (take(earliest->point, frame.status, frame.segment)) {
                ++count;
            }
            advance(*earliest, clocks_[earliest->point]);
        }
        return count;
    }

    size_t pushNext(AnalysisEngine& engine, size_t count) override {
        size_t pushed = 0;
        TcpSegment segment;
        PacketTooBig tooBig;
        while (pushed < count) {
            uint32_t index = 0;
            PointInput* earliest = earliestInput(inputs_, index);
            if (earliest == nullptr) {
                break;
            }
            if (take(earliest->point, decodePacket(earliest->pending, segment, &tooBig), segment)) {
                engine.push(onReferenceClock(*earliest), index);
                ++pushed;
            }
            advance(*earliest, clocks_[earliest->point]);
        }
        return pushed;
    }

    /// The bytes of the first read (the segments to match) and of this one.
    [[nodiscard]] uint64_t bytesConsumed() const override {
        uint64_t done = bytesBefore_;
        for (const PointInput& input : inputs_) {
            done += input.reader->bytesConsumed();
        }
        return done;
    }

private:
    static RawPacket onReferenceClock(const PointInput& input) {
        RawPacket packet = input.pending;
        packet.tsNs = input.referenceTsNs;
        return packet;
    }

    // True if the frame is analysed from `point`; then notes it in the sightings.
    bool take(uint32_t point, DecodeStatus status, const TcpSegment& segment) {
        std::optional<SegmentIdentity> identity;
        if (status == DecodeStatus::Tcp || status == DecodeStatus::PacketTooBig) {
            bool sourceIsLow = true;
            const auto chosen = vantage_.find(FlowKey::fromSegment(segment.source, segment.destination, sourceIsLow));
            // A "too big" message about a connection no point saw a segment of is taken from every point.
            if (chosen != vantage_.end() && chosen->second != point) {
                return false;
            }
            if (status == DecodeStatus::Tcp) {
                ++summaries_[point].analysedSegments;
                identity = identityOf(segment);
            }
        }
        sightings_.addFrame(point, identity);
        return true;
    }

    std::vector<PointInput>& inputs_;
    const std::vector<PointClock>& clocks_;
    const absl::flat_hash_map<FlowKey, uint32_t>& vantage_;
    std::vector<PointSummary>& summaries_;
    PointSightings& sightings_;
    uint64_t bytesBefore_;
};

// The frames of every point chosen by VantageFrames, through the frame driver into the engine.
std::vector<InputSummary> feedVantagePackets(const std::vector<CapturePoint>& points,
                                             const std::vector<PointClock>& clocks,
                                             const absl::flat_hash_map<FlowKey, uint32_t>& vantage,
                                             AnalysisEngine& engine, std::vector<PointSummary>& summaries,
                                             PointSightings& sightings, LoadProgress* progress, const StopToken* stop) {
    std::vector<PointInput> inputs;
    for (uint32_t p = 0; p < points.size(); ++p) {
        for (const std::string& path : points[p].files) {
            PointInput& input = inputs.emplace_back();
            input.reader = CaptureReader::open(path);
            input.point = p;
            input.summary.path = path;
        }
    }
    for (PointInput& input : inputs) {
        advance(input, clocks[input.point]);
    }
    // Files of one era share their origin (TimeOrigin): the reference point's first file gives it.
    if (!inputs.empty()) {
        engine.setTimeOrigin(inputs.front().reader->timeOrigin());
    }
    VantageFrames frames(inputs, clocks, vantage, summaries, sightings,
                         progress != nullptr ? progress->bytesDone.load() : 0);
    driveFrames(frames, engine, DriveControls{progress, stop, {}});
    engine.releaseTracking();
    engine.finish();
    if (progress != nullptr) {
        progress->bytesDone = frames.bytesConsumed();
    }
    std::vector<InputSummary> inputSummaries;
    for (PointInput& input : inputs) {
        closeOut(input);
        inputSummaries.push_back(std::move(input.summary));
    }
    return inputSummaries;
}

// The clocks the user gave (CapturePoint::clock; not the reference's) in place of the fitted ones,
// which the summary keeps; the one-way delays of the hops whose clocks moved measured again.
void applyGivenClocks(const std::vector<CapturePoint>& points, const std::vector<PointSegments>& segments,
                      int64_t referenceOriginNs, std::vector<PointClock>& clocks, CapturePointsSummary& summary) {
    std::vector<bool> moved(points.size(), false);
    for (uint32_t p = 1; p < points.size() && p < clocks.size(); ++p) {
        moved[p] =
            points[p].clock.has_value() || std::any_of(clocks[p].via.begin(), clocks[p].via.end(),
                                                       [&](uint32_t via) { return points[via].clock.has_value(); });
    }
    for (uint32_t p = 1; p < points.size() && p < clocks.size(); ++p) {
        if (points[p].clock) {
            summary.points[p].fittedClock = overrideClock(clocks, p, *points[p].clock, referenceOriginNs);
        }
    }
    for (PointLink& hop : summary.hops) {
        if (moved[hop.first] || moved[hop.second]) {
            remeasureDelays(hop.fit, matchSegments(segments[hop.first], segments[hop.second]),
                            relativeClock(clocks[hop.first], clocks[hop.second]));
        }
    }
}

}  // namespace

PointsAnalysis analyzePoints(const std::vector<CapturePoint>& points, const AnalysisOptions& options,
                             LoadProgress* progress, const StopToken* stop) {
    PointsAnalysis result;
    std::vector<PointSegments> segments;
    for (const CapturePoint& point : points) {
        if (points.size() > 1 && std::find(point.files.begin(), point.files.end(), "-") != point.files.end()) {
            throw CaptureError({"-", 0, "standard input cannot be a capture point among several (it is read twice)"});
        }
    }
    if (points.size() > 1) {
        if (progress != nullptr) {
            progress->bytesTotal = bytesToRead(points);
        }
        for (const CapturePoint& point : points) {
            segments.push_back(readPointSegments(point, progress, stop));
        }
    }
    int64_t referenceOriginNs = 0;
    if (!segments.empty() && !segments.front().segments.empty()) {
        referenceOriginNs = segments.front().segments.front().tsNs;
    }
    for (uint32_t first = 0; first < segments.size(); ++first) {
        for (uint32_t second = first + 1; second < segments.size(); ++second) {
            if (std::optional<PairClockFit> fit = fitPairClock(matchSegments(segments[first], segments[second]))) {
                result.summary.hops.push_back({first, second, *fit});
            }
        }
    }
    std::vector<PointClock> clocks =
        chainPointClocks(static_cast<uint32_t>(points.size()), result.summary.hops, referenceOriginNs);
    for (uint32_t p = 0; p < points.size(); ++p) {
        PointSummary& summary = result.summary.points.emplace_back();
        summary.point = points[p];
    }
    applyGivenClocks(points, segments, referenceOriginNs, clocks, result.summary);
    for (uint32_t p = 0; p < points.size(); ++p) {
        result.summary.points[p].clock = clocks[p];
    }

    if (points.size() <= 1) {
        std::vector<std::string> files = points.empty() ? std::vector<std::string>{} : points.front().files;
        result.analysis = analyzeCaptures(files, options, progress, stop);
        if (!points.empty()) {
            PointSummary& only = result.summary.points.front();
            for (const InputSummary& input : result.analysis.inputs) {
                only.frames += input.frames;
            }
            only.tcpSegments = only.analysedSegments = result.analysis.engine->counters().tcp;
            only.connectionsAnalysed = result.analysis.engine->connections().size();
        }
        return result;
    }

    const absl::flat_hash_map<FlowKey, uint32_t> vantage = chooseVantagePoints(segments, clocks);
    for (uint32_t p = 0; p < points.size(); ++p) {
        result.summary.points[p].frames = segments[p].frames;
        result.summary.points[p].tcpSegments = segments[p].segments.size();
    }
    for (const auto& [flow, point] : vantage) {
        ++result.summary.points[point].connectionsAnalysed;
    }
    auto sightings = std::make_shared<PointSightings>(std::move(segments), clocks);
    // The same steps as analyzeCaptures, with the frames chosen and put on one clock.
    CaptureAnalysis& analysis = result.analysis;
    analysis.engine = std::make_unique<AnalysisEngine>(options.engine);
    auto authors = std::make_unique<FindingAuthors>(*analysis.engine, options.detectors);
    analysis.inputs = feedVantagePackets(points, clocks, vantage, *analysis.engine, result.summary.points, *sightings,
                                         progress, stop);
    releaseFindings(analysis, std::move(authors), options);
    std::vector<std::string> names;
    for (const CapturePoint& point : points) {
        names.push_back(point.name);
    }
    placeFindingSpans(analysis, *sightings, names);
    result.sightings = std::move(sightings);
    return result;
}

}  // namespace tcpscope
