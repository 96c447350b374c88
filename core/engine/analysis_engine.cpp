#include "engine/analysis_engine.hpp"

#include <algorithm>
#include <stdexcept>

#include "capture/ptcpdump_comment.hpp"
#include "decode/packet_decoder.hpp"

namespace tcpscope {

AnalysisEngine::AnalysisEngine(const EngineOptions& options) : options_(options) {
    packets_.spillTo(options_.indexSpill);
    if (!options_.filter.empty()) {
        filter_.emplace(options_.filter);
    }
}

void AnalysisEngine::addObserver(SegmentObserver* observer) { observers_.push_back(observer); }

std::vector<std::string> AnalysisEngine::filterWarnings() const {
    return filter_ ? filter_->warnings() : std::vector<std::string>{};
}

namespace {

// A step back in time of at least this much counts in FrameCounters::timeBackwards.
constexpr int64_t kBackwardStepNs = 1'000'000;

// The comment of `packet` that is kept with its frame: none when it is ptcpdump's account of the
// packet's process (on every packet of such a capture), which the process keeps once instead.
std::string_view keptComment(const RawPacket& packet) {
    if (packet.comment.empty() || (packet.process != nullptr && looksLikePtcpdumpComment(packet.comment))) {
        return {};
    }
    return packet.comment;
}

}  // namespace

uint32_t AnalysisEngine::countFrame(int64_t tsNs, uint32_t linkType, uint32_t fileIndex, std::string_view comment) {
    const uint32_t frame = nextFrame_++;
    if (counters_.frames == 0) {
        firstTsNs_ = tsNs;
    }
    // A step back of a few microseconds is a capture's multi-queue reordering, harmless; one of
    // kBackwardStepNs or more breaks the times measured around it.
    if (counters_.frames > 0 && tsNs <= lastTsNs_ - kBackwardStepNs) {
        ++counters_.timeBackwards;
        counters_.largestBackwardNs = std::max(counters_.largestBackwardNs, lastTsNs_ - tsNs);
        if (backwardFrames_.size() < kListedQualityFrames) {
            backwardFrames_.push_back(frame);
        }
    }
    ++counters_.frames;
    lastTsNs_ = tsNs;
    // Frames of one capture almost always share a link type: look the counter up only on a change.
    if (linkTypeCount_ == nullptr || linkType != countedLinkType_) {
        countedLinkType_ = linkType;
        linkTypeCount_ = &counters_.framesByLinkType[linkType];
    }
    ++*linkTypeCount_;
    if (!comment.empty()) {
        comments_.push_back(PacketComment{frame, tsNs, fileIndex, std::string(comment)});  // TCP or not
    }
    return frame;
}

// Inlined into its three callers: the one-thread push() must not pay for a call with nine arguments.
[[gnu::always_inline]] inline bool AnalysisEngine::trackSegment(DecodeStatus status, const TcpSegment& segment,
                                                                const TupleRef& tuple, int64_t tsNs,
                                                                uint64_t recordOffset, uint32_t fileIndex,
                                                                uint32_t frame, TrackedSegment& tracked) {
    switch (status) {
        case DecodeStatus::Tcp: break;
        case DecodeStatus::NotTcp: ++counters_.notTcp; return false;
        case DecodeStatus::PacketTooBig: ++counters_.notTcp; ++counters_.packetTooBig; return false;
        case DecodeStatus::Unreachable: ++counters_.notTcp; return false;
        case DecodeStatus::Fragment: ++counters_.fragments; return false;
        case DecodeStatus::UnsupportedLink: ++counters_.unsupportedLink; return false;
        case DecodeStatus::Malformed: ++counters_.malformed; return false;
        case DecodeStatus::Truncated: ++counters_.truncated; return false;
    }
    if (duplicates_.isCopy(segment, tsNs)) {
        ++counters_.duplicates;
        if (duplicateFrames_.size() < kListedQualityFrames) {
            duplicateFrames_.push_back(frame);
        }
        return false;
    }
    ++counters_.tcp;
    if (segment.sizeLimited) {
        ++counters_.sizeLimited;
    }

    tracked = tracker_.track(segment, tuple, tsNs, frame);
    if (!options_.keepPacketIndex) {
        return true;
    }
    IndexedPacket indexed;
    indexed.tsNs = tsNs;
    indexed.recordOffset = recordOffset;
    indexed.fileIndex = fileIndex;
    indexed.frame = frame;
    indexed.connection = tracked.connection->id;
    indexed.seq = segment.seq;
    indexed.ack = segment.ack;
    indexed.payloadLength = segment.payloadLength;
    indexed.tcpFlags = static_cast<uint8_t>(segment.flags & 0xff);
    indexed.fromServer = tracked.sender == Side::Server;
    indexed.window = segment.window;
    indexed.analysis = tracked.analysis;
    packets_.append(indexed);
    return true;
}

[[gnu::always_inline]] inline void AnalysisEngine::analyse(DecodeStatus status, const TcpSegment& segment,
                                                           const TupleRef& tuple, int64_t tsNs, uint64_t recordOffset,
                                                           uint32_t fileIndex, uint32_t frame,
                                                           const PacketProcess* process, PacketDirection direction) {
    TrackedSegment tracked;
    if (!trackSegment(status, segment, tuple, tsNs, recordOffset, fileIndex, frame, tracked)) {
        return;
    }
    noteProcess(tracked, process, direction);
    if (!observers_.empty()) {
        const ConnectionSnapshot connection = ConnectionSnapshot::of(*tracked.connection);
        const SegmentEvent event{segment, connection, tracked.sender, frame, tsNs, tracked.analysis};
        for (SegmentObserver* observer : observers_) {
            observer->onSegment(event);
        }
    }
    if (options_.retirement.enabled) {
        if (tracked.newConnection) {
            live_.push_back(tracked.connection->id);
        }
        if (tsNs >= nextRetirementNs_) {
            retireAged(tsNs);
        }
    }
}

void AnalysisEngine::push(const RawPacket& packet, uint32_t fileIndex) {
    const uint32_t frame = countFrame(packet.tsNs, packet.linkType, fileIndex, keptComment(packet));
    if (filter_ && !filter_->matches(packet)) {
        ++counters_.filteredOut;
        return;
    }
    TcpSegment segment;
    PacketTooBig tooBig;
    DestinationUnreachable unreachable;
    const DecodeStatus status = decodePacket(packet, segment, &tooBig, &unreachable);
    TupleRef tuple;
    if (status == DecodeStatus::Tcp) {
        tuple = tuples_.number(segment.source, segment.destination);
    }
    analyse(status, segment, tuple, packet.tsNs, packet.recordOffset, fileIndex, frame, packet.process,
            packet.direction);
    tellIcmp(status, segment, tooBig, unreachable, frame, packet.tsNs);
}

void AnalysisEngine::tellIcmp(DecodeStatus status, const TcpSegment& quoted, const PacketTooBig& tooBig,
                              const DestinationUnreachable& unreachable, uint32_t frame, int64_t tsNs) {
    if (status == DecodeStatus::PacketTooBig) {
        tellPacketTooBig(quoted, tooBig, frame, tsNs);
    } else if (status == DecodeStatus::Unreachable) {
        const UnreachableEvent event{quoted, unreachable, frame, tsNs};
        for (SegmentObserver* observer : observers_) {
            observer->onUnreachable(event);
        }
    }
}

void AnalysisEngine::tellPacketTooBig(const TcpSegment& quoted, const PacketTooBig& message, uint32_t frame,
                                      int64_t tsNs) {
    const PacketTooBigEvent event{quoted, message, frame, tsNs};
    for (SegmentObserver* observer : observers_) {
        observer->onPacketTooBig(event);
    }
}

void AnalysisEngine::decode(const RawPacket& packet, uint32_t fileIndex, PreparedFrame& frame) const {
    frame.tsNs = packet.tsNs;
    frame.recordOffset = packet.recordOffset;
    frame.linkType = packet.linkType;
    frame.fileIndex = fileIndex;
    frame.comment.assign(keptComment(packet));
    frame.process = packet.process;
    frame.direction = packet.direction;
    frame.status = decodePacket(packet, frame.segment, &frame.tooBig, &frame.unreachable);
}

namespace {

// How many frames ahead a run asks for the cache lines of a frame's tuple slot or connection: far
// enough for a miss to memory to arrive before the frame's turn, near enough to stay in the cache.
constexpr size_t kPrefetchAhead = 8;

}  // namespace

void AnalysisEngine::numberTuples(std::span<PreparedFrame> frames) {
    for (size_t i = 0; i < frames.size(); ++i) {
        if (i + kPrefetchAhead < frames.size()) {
            const PreparedFrame& ahead = frames[i + kPrefetchAhead];
            if (ahead.status == DecodeStatus::Tcp) {
                tuples_.prefetch(ahead.segment.source, ahead.segment.destination);
            }
        }
        PreparedFrame& frame = frames[i];
        if (frame.status == DecodeStatus::Tcp) {
            frame.tuple = tuples_.number(frame.segment.source, frame.segment.destination);
        }
    }
}

void AnalysisEngine::pushPrepared(const PreparedFrame& prepared) {
    const uint32_t frame = countFrame(prepared.tsNs, prepared.linkType, prepared.fileIndex, prepared.comment);
    analyse(prepared.status, prepared.segment, prepared.tuple, prepared.tsNs, prepared.recordOffset,
            prepared.fileIndex, frame, prepared.process, prepared.direction);
    tellIcmp(prepared.status, prepared.segment, prepared.tooBig, prepared.unreachable, frame, prepared.tsNs);
}

void AnalysisEngine::trackRun(std::span<PreparedFrame> frames, std::span<TrackedFrame> tracked) {
    if (options_.retirement.enabled) {
        throw std::logic_error("AnalysisEngine::trackRun: the engine retires connections");
    }
    if (!concurrentReads_) {
        tracker_.allowConcurrentReads();  // the observers, on another thread, read earlier connections
        concurrentReads_ = true;
    }
    numberTuples(frames);
    for (size_t i = 0; i < frames.size(); ++i) {
        if (i + kPrefetchAhead < frames.size() && frames[i + kPrefetchAhead].status == DecodeStatus::Tcp) {
            tracker_.prefetch(frames[i + kPrefetchAhead].tuple);
        }
        const PreparedFrame& prepared = frames[i];
        TrackedFrame& result = tracked[i];
        const uint32_t frame = countFrame(prepared.tsNs, prepared.linkType, prepared.fileIndex, prepared.comment);
        TrackedSegment segment;
        result.isTcp = trackSegment(prepared.status, prepared.segment, prepared.tuple, prepared.tsNs,
                                    prepared.recordOffset, prepared.fileIndex, frame, segment);
        result.frame = frame;  // an ICMP message's too, for notify()
        if (result.isTcp) {
            noteProcess(segment, prepared.process, prepared.direction);
            result.connection.take(*segment.connection);
            result.analysis = segment.analysis;
            result.sender = segment.sender;
        }
    }
}

void AnalysisEngine::notify(const PreparedFrame& prepared, const TrackedFrame& tracked) {
    if (!tracked.isTcp) {
        tellIcmp(prepared.status, prepared.segment, prepared.tooBig, prepared.unreachable, tracked.frame,
                 prepared.tsNs);
        return;
    }
    const SegmentEvent event{prepared.segment, tracked.connection, tracked.sender,
                             tracked.frame,    prepared.tsNs,      tracked.analysis};
    for (SegmentObserver* observer : observers_) {
        observer->onSegment(event);
    }
}

void AnalysisEngine::retireAged(int64_t nowNs) {
    constexpr int64_t kRetirementPeriodNs = 1'000'000'000;  // a pass over the live connections per second of capture
    nextRetirementNs_ = nowNs + kRetirementPeriodNs;
    const ConnectionRetirement& ages = options_.retirement;
    size_t kept = 0;
    for (const uint32_t id : live_) {
        const Connection& connection = connections()[id];
        const bool closed = connection.state == ConnectionState::Closed || connection.state == ConnectionState::Reset;
        if (nowNs - connection.lastTsNs <= (closed ? ages.closedAgeNs : ages.idleAgeNs)) {
            live_[kept++] = id;
            continue;
        }
        tracker_.retire(id);
        for (SegmentObserver* observer : observers_) {
            observer->onRetire(connection);
        }
        ++retired_;
    }
    live_.resize(kept);
}

std::string_view AnalysisEngine::commentOf(uint32_t frame) const {
    const auto found = std::lower_bound(comments_.begin(), comments_.end(), frame,
                                        [](const PacketComment& entry, uint32_t wanted) { return entry.frame < wanted; });
    return found != comments_.end() && found->frame == frame ? std::string_view(found->text) : std::string_view();
}

int64_t AnalysisEngine::advanceClock(int64_t nowNs) {
    clockNs_ = std::max(nowNs, clockNs());
    for (SegmentObserver* observer : observers_) {
        observer->onClock(clockNs_);
    }
    return clockNs_;
}

void AnalysisEngine::finish() {
    for (SegmentObserver* observer : observers_) {
        observer->onEnd(lastTsNs_);
    }
}

}  // namespace tcpscope
