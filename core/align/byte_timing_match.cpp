#include "align/byte_timing_match.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>

#include "align/first_transmissions.hpp"
#include "align/log_time.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kPromptNs = 1'000'000;         // bytes that leave (or are read) within 1 ms: a close fit
constexpr int64_t kHeldNs = 500'000'000;         // Nagle and delayed ACK hold bytes for up to ~200 ms (Linux)
constexpr int64_t kReadAnchorNs = 2'000'000'000;  // a read's bytes arrived at most this long before it
constexpr int64_t kOverlapSlackNs = 1'000'000'000;
constexpr size_t kAnchorCalls = 8;        // the first calls whose bytes may start the stream positions
constexpr size_t kAnchorsPerCall = 32;    // segments considered per anchor call
constexpr size_t kUntimedAnchors = 1024;  // without times, any segment may be the first: bounded
constexpr size_t kBaseSearchCalls = 256;  // calls scored while choosing the stream positions
constexpr double kAmbiguousRatio = 0.8;   // a runner-up this close to the best makes the mapping ambiguous
constexpr double kUnsureMinScore = 3;     // plain read/write on an fd of unknown kind need more evidence
constexpr double kHeldScore = 0.25;       // a write whose bytes left late (Nagle, window): fits, loosely
constexpr double kStaleReadScore = 0.1;   // a read of bytes that had been waiting: does not contradict

struct TimedCall {
    int64_t tsNs = 0;   // on the capture's clock (log clock + offset)
    int64_t endNs = 0;  // entry plus duration
    uint64_t bytes = 0;
    uint64_t before = 0;      // bytes of the same direction traced before this call
    int64_t requested = -1;   // bytes asked for (reads)
};

struct Traffic {
    std::vector<TimedCall> writes;
    std::vector<TimedCall> reads;
};

Traffic trafficOf(const TracedSocket& socket, const StraceLog& log, const CallClock& clock) {
    Traffic traffic;
    uint64_t written = 0;
    uint64_t read = 0;
    for (uint32_t index : socket.records) {
        const SyscallRecord& record = log.records[index];
        const bool isWrite = record.kind == SyscallKind::Write;
        if ((!isWrite && record.kind != SyscallKind::Read) || !record.succeeded() || record.bytes <= 0) {
            continue;
        }
        TimedCall call;
        call.tsNs = onCaptureClock(record.tsNs, clock.offsetNs);
        call.endNs = onCaptureClock(call.tsNs, std::max<int64_t>(record.durationNs, 0));
        call.bytes = static_cast<uint64_t>(record.bytes);
        call.requested = record.requestedBytes;
        uint64_t& position = isWrite ? written : read;
        call.before = position;
        position += call.bytes;
        (isWrite ? traffic.writes : traffic.reads).push_back(call);
    }
    return traffic;
}

struct DirectionFit {
    double score = 0;
    uint32_t fitting = 0;
    uint32_t compared = 0;
    uint32_t contradictions = 0;

    void fits(double points) {
        score += points;
        ++fitting;
    }
    [[nodiscard]] bool betterThan(const DirectionFit& other) const {
        return score != other.score ? score > other.score : contradictions < other.contradictions;
    }
};

// Writes against the stream they would have sent, the first at stream offset `base`.
DirectionFit fitWrites(const std::vector<TimedCall>& writes, size_t count, const FirstTransmissions& sent,
                       uint64_t base, const CallClock& clock) {
    DirectionFit fit;
    for (size_t i = 0; i < std::min(count, writes.size()); ++i) {
        const TimedCall& call = writes[i];
        const uint64_t first = base + call.before;
        const auto firstSeen = sent.firstSeenNs(first);
        const auto lastSeen = sent.firstSeenNs(first + call.bytes - 1);
        if (!firstSeen || !lastSeen) {
            continue;  // outside what the capture holds: no evidence either way
        }
        ++fit.compared;
        if (!clock.timed) {
            // Only the shape: a write that began a segment, as most do when nothing waits before them.
            if (sent.startsSegment(first)) {
                fit.fits(1);
            }
            continue;
        }
        // A write's bytes cannot leave before it; they leave together unless held back, so a
        // close fit needs its last byte out at once, not only its first.
        const int64_t lastDelay = *lastSeen - call.tsNs;
        if (std::min(*firstSeen, *lastSeen) - call.tsNs < -clock.toleranceNs) {
            ++fit.contradictions;  // on the wire before it was written
        } else if (lastDelay <= kPromptNs + clock.toleranceNs) {
            fit.fits(1);
        } else if (lastDelay <= kHeldNs) {
            fit.fits(kHeldScore);
        }
    }
    return fit;
}

// Reads against the stream the peer sent, the first at stream offset `base`.
DirectionFit fitReads(const std::vector<TimedCall>& reads, size_t count, const FirstTransmissions& received,
                      uint64_t base, const CallClock& clock) {
    DirectionFit fit;
    for (size_t i = 0; i < std::min(count, reads.size()); ++i) {
        const TimedCall& call = reads[i];
        const uint64_t first = base + call.before;
        const uint64_t end = first + call.bytes;
        const auto lastSeen = received.firstSeenNs(end - 1);
        if (!lastSeen || !received.firstSeenNs(first)) {
            continue;
        }
        ++fit.compared;
        if (!clock.timed) {
            // A read takes what has arrived: it ends where a segment ended.
            if (received.startsSegment(end) || end == received.end()) {
                fit.fits(1);
            }
            continue;
        }
        const auto next = received.firstSeenNs(end);
        const bool couldTakeMore = call.requested > static_cast<int64_t>(call.bytes);
        if (*lastSeen > call.endNs + clock.toleranceNs ||
            (couldTakeMore && next && *next < call.tsNs - clock.toleranceNs)) {
            // Returned bytes that had not arrived, or left behind bytes that had.
            ++fit.contradictions;
            continue;
        }
        fit.fits(call.endNs - *lastSeen <= kPromptNs + clock.toleranceNs ? 1 : kStaleReadScore);
    }
    return fit;
}

// The stream offsets the first traced write (or read) may have had: where a segment that left
// (arrived) close to one of the first calls puts it. Sorted, without repeats.
std::vector<uint64_t> baseCandidates(const std::vector<TimedCall>& calls, const FirstTransmissions& stream,
                                     const CallClock& clock, bool reads) {
    std::vector<uint64_t> bases;
    const auto& runs = stream.runs();
    if (calls.empty() || runs.empty()) {
        return bases;
    }
    if (!clock.timed) {
        const TimedCall& call = calls.front();
        for (size_t i = 0; i < runs.size() && bases.size() < kUntimedAnchors; ++i) {
            if (!reads) {
                bases.push_back(runs[i].begin);
            } else if (runs[i].end >= call.bytes) {
                bases.push_back(runs[i].end - call.bytes);
            }
        }
    } else {
        // New data runs are in capture order: their times only grow.
        for (size_t k = 0; k < std::min(kAnchorCalls, calls.size()); ++k) {
            const TimedCall& call = calls[k];
            const int64_t from = reads ? call.endNs - kReadAnchorNs : call.tsNs - clock.toleranceNs;
            const int64_t to = reads ? call.endNs + clock.toleranceNs : call.tsNs + kHeldNs;
            auto run = std::lower_bound(runs.begin(), runs.end(), from,
                                        [](const FirstTransmissions::Run& r, int64_t ts) { return r.tsNs < ts; });
            if (reads) {
                // The latest arrivals before the read are the likely last bytes of it.
                auto last = std::upper_bound(run, runs.end(), to,
                                             [](int64_t ts, const FirstTransmissions::Run& r) { return ts < r.tsNs; });
                for (size_t taken = 0; last != run && taken < kAnchorsPerCall; ++taken) {
                    --last;
                    const uint64_t endOfCall = call.before + call.bytes;
                    if (last->end >= endOfCall) {
                        bases.push_back(last->end - endOfCall);
                    }
                }
            } else {
                for (size_t taken = 0; run != runs.end() && run->tsNs <= to && taken < kAnchorsPerCall; ++run, ++taken) {
                    if (run->begin >= call.before) {
                        bases.push_back(run->begin - call.before);
                    }
                }
            }
        }
    }
    std::sort(bases.begin(), bases.end());
    bases.erase(std::unique(bases.begin(), bases.end()), bases.end());
    return bases;
}

struct BestBase {
    uint64_t base = 0;
    DirectionFit fit;
};

// The stream position that fits a direction's calls best, and the fit of all its calls there.
template <typename Fit>
BestBase bestBase(const std::vector<TimedCall>& calls, const FirstTransmissions& stream, const CallClock& clock,
                  bool reads, std::optional<uint64_t> known, Fit fit) {
    BestBase best;
    if (calls.empty()) {
        return best;
    }
    std::vector<uint64_t> bases = known ? std::vector<uint64_t>{*known} : baseCandidates(calls, stream, clock, reads);
    bool found = false;
    for (uint64_t base : bases) {
        const DirectionFit candidate = fit(calls, kBaseSearchCalls, stream, base, clock);
        if (!found || candidate.betterThan(best.fit)) {
            best = {base, candidate};
            found = true;
        }
    }
    if (found && calls.size() > kBaseSearchCalls) {
        best.fit = fit(calls, calls.size(), stream, best.base, clock);
    }
    return best;
}

// Streams of the candidate connections, built once each.
class StreamCache {
public:
    StreamCache(const AnalysisEngine& engine, const std::vector<bool>& wanted) : segments_(engine, wanted) {}

    const FirstTransmissions& of(uint32_t connection, Side side) {
        auto& slot = streams_[{connection, sideIndex(side)}];
        if (!slot) {
            slot = std::make_unique<FirstTransmissions>(segments_.of(connection, side));
        }
        return *slot;
    }

private:
    ConnectionSegments segments_;
    std::map<std::pair<uint32_t, size_t>, std::unique_ptr<FirstTransmissions>> streams_;
};

ByteTimingScore scorePair(const TracedSocket& socket, const Traffic& traffic, const Connection& connection, Side side,
                          StreamCache& streams, const CallClock& clock) {
    const bool fromStart = socket.seenFromStart && !connection.midstream;
    const std::optional<uint64_t> known = fromStart ? std::optional<uint64_t>(0) : std::nullopt;
    const BestBase writes = bestBase(traffic.writes, streams.of(connection.id, side), clock, false, known, fitWrites);
    const BestBase reads =
        bestBase(traffic.reads, streams.of(connection.id, otherSide(side)), clock, true, known, fitReads);
    ByteTimingScore score;
    score.connection = connection.id;
    score.side = side;
    score.score = writes.fit.score + reads.fit.score;
    score.fittingCalls = writes.fit.fitting + reads.fit.fitting;
    score.comparedCalls = writes.fit.compared + reads.fit.compared;
    score.contradictions = writes.fit.contradictions + reads.fit.contradictions;
    score.sentBase = writes.base;
    score.receivedBase = reads.base;
    return score;
}

// How many of the first calls have a segment that left (arrived) at once around them on this
// side of the connection: a cheap test that keeps the full comparison to the likely pairs when
// thousands of connections are alive at the time.
size_t promptNeighbours(const Traffic& traffic, const FirstTransmissions& sent, const FirstTransmissions& received,
                        const CallClock& clock) {
    const auto anyRunIn = [](const FirstTransmissions& stream, int64_t from, int64_t to) {
        const auto& runs = stream.runs();
        const auto run = std::lower_bound(runs.begin(), runs.end(), from,
                                          [](const FirstTransmissions::Run& r, int64_t ts) { return r.tsNs < ts; });
        return run != runs.end() && run->tsNs <= to;
    };
    size_t found = 0;
    for (size_t k = 0; k < std::min(kAnchorCalls, traffic.writes.size()); ++k) {
        const TimedCall& call = traffic.writes[k];
        found += anyRunIn(sent, call.tsNs - clock.toleranceNs, call.tsNs + kPromptNs + clock.toleranceNs) ? 1 : 0;
    }
    for (size_t k = 0; k < std::min(kAnchorCalls, traffic.reads.size()); ++k) {
        const TimedCall& call = traffic.reads[k];
        found += anyRunIn(received, call.endNs - kPromptNs - clock.toleranceNs, call.endNs + clock.toleranceNs) ? 1 : 0;
    }
    return found;
}

// A pair is possible when the capture holds some of the socket's bytes and almost none of them
// contradict it.
bool acceptable(const ByteTimingScore& score, const TracedSocket& socket) {
    return score.comparedCalls > 0 && score.contradictions * 20 <= score.comparedCalls &&
           score.score >= (socket.kindUnsure ? kUnsureMinScore : 1.0);
}

// The socket's life on the capture's clock, from its first to its last call.
std::pair<int64_t, int64_t> callSpan(const Traffic& traffic) {
    int64_t first = std::numeric_limits<int64_t>::max();
    int64_t last = std::numeric_limits<int64_t>::min();
    for (const auto* calls : {&traffic.writes, &traffic.reads}) {
        if (!calls->empty()) {
            first = std::min(first, calls->front().tsNs);
            last = std::max(last, calls->back().endNs);
        }
    }
    return {first, last};
}

bool sideAllowed(const TracedSocket& socket, Side side) {
    if (socket.acceptedHere) {
        return side == Side::Server;
    }
    if (socket.connectCalled) {
        return side == Side::Client;
    }
    return true;
}

}  // namespace

void matchSocketsByBytesAndTiming(std::vector<TracedSocket>& sockets, const std::vector<AlignedLog>& logs,
                                  const AnalysisEngine& engine, const std::vector<CallClock>& clocks,
                                  std::vector<AmbiguousSocket>& ambiguous) {
    const auto& connections = engine.connections();
    // Connection sides already held by a socket: no other socket can be that end of it.
    std::map<std::pair<uint32_t, size_t>, uint32_t> taken;
    std::vector<Traffic> traffic(sockets.size());
    std::vector<uint32_t> open;  // sockets to match or to place in their streams
    std::vector<bool> wanted(connections.size(), false);
    for (uint32_t s = 0; s < sockets.size(); ++s) {
        TracedSocket& socket = sockets[s];
        if (socket.connection != kNoConnection) {
            taken[{socket.connection, sideIndex(socket.side)}] = s;
            if (socket.seenFromStart && !connections[socket.connection].midstream) {
                socket.streamBasesKnown = true;
                continue;
            }
        } else if (socket.listening) {
            continue;
        }
        traffic[s] = trafficOf(socket, logs[socket.log].log, clocks[socket.log]);
        if (traffic[s].writes.empty() && traffic[s].reads.empty()) {
            continue;
        }
        open.push_back(s);
        if (socket.connection != kNoConnection) {
            wanted[socket.connection] = true;
            continue;
        }
        const auto [first, last] = callSpan(traffic[s]);
        for (const Connection& c : connections) {
            if (!clocks[socket.log].timed ||
                (c.firstTsNs <= last + kOverlapSlackNs && c.lastTsNs >= first - kOverlapSlackNs)) {
                wanted[c.id] = true;
            }
        }
    }
    if (open.empty()) {
        return;
    }
    StreamCache streams(engine, wanted);

    struct Proposal {
        uint32_t socket;
        ByteTimingScore best;
        double runnerUp;
    };
    std::vector<Proposal> proposals;
    for (uint32_t s : open) {
        TracedSocket& socket = sockets[s];
        const CallClock& clock = clocks[socket.log];
        if (socket.connection != kNoConnection) {
            // Tied by -yy or history but not seen from its start: find where its calls are in the streams.
            const ByteTimingScore placed =
                scorePair(socket, traffic[s], connections[socket.connection], socket.side, streams, clock);
            socket.sentBase = placed.sentBase;
            socket.receivedBase = placed.receivedBase;
            socket.streamBasesKnown = placed.comparedCalls > 0;
            continue;
        }
        const auto [first, last] = callSpan(traffic[s]);
        std::vector<ByteTimingScore> scores;
        for (const Connection& c : connections) {
            if (clock.timed && (c.firstTsNs > last + kOverlapSlackNs || c.lastTsNs < first - kOverlapSlackNs)) {
                continue;
            }
            for (const Side side : {Side::Client, Side::Server}) {
                if (!sideAllowed(socket, side) || taken.contains({c.id, sideIndex(side)}) ||
                    (clock.timed && promptNeighbours(traffic[s], streams.of(c.id, side),
                                                     streams.of(c.id, otherSide(side)), clock) == 0)) {
                    continue;
                }
                ByteTimingScore score = scorePair(socket, traffic[s], c, side, streams, clock);
                if (acceptable(score, socket)) {
                    scores.push_back(score);
                }
            }
        }
        if (scores.empty()) {
            continue;
        }
        std::sort(scores.begin(), scores.end(),
                  [](const ByteTimingScore& a, const ByteTimingScore& b) { return a.score > b.score; });
        const double runnerUp = scores.size() > 1 ? scores[1].score : 0;
        if (runnerUp >= scores[0].score * kAmbiguousRatio) {
            AmbiguousSocket refused{s, {}};
            for (const ByteTimingScore& score : scores) {
                if (score.score >= scores[0].score * kAmbiguousRatio) {
                    refused.candidates.push_back(score);
                }
            }
            ambiguous.push_back(std::move(refused));
            continue;
        }
        proposals.push_back({s, scores[0], runnerUp});
    }

    // Two sockets cannot be the same end of one connection: the clearly better one keeps it.
    std::sort(proposals.begin(), proposals.end(),
              [](const Proposal& a, const Proposal& b) { return a.best.score > b.best.score; });
    std::map<std::pair<uint32_t, size_t>, size_t> claimedBy;
    enum class Outcome : uint8_t { Tied, Ambiguous, Lost };
    std::vector<Outcome> outcomes(proposals.size(), Outcome::Tied);
    for (size_t p = 0; p < proposals.size(); ++p) {
        const auto key = std::pair{proposals[p].best.connection, sideIndex(proposals[p].best.side)};
        const auto [claim, inserted] = claimedBy.try_emplace(key, p);
        if (inserted) {
            continue;
        }
        if (proposals[p].best.score >= proposals[claim->second].best.score * kAmbiguousRatio) {
            outcomes[p] = Outcome::Ambiguous;
            outcomes[claim->second] = Outcome::Ambiguous;
        } else {
            outcomes[p] = Outcome::Lost;  // clearly worse than the socket that holds it: not this connection
        }
    }
    for (size_t p = 0; p < proposals.size(); ++p) {
        const Proposal& proposal = proposals[p];
        if (outcomes[p] != Outcome::Tied) {
            if (outcomes[p] == Outcome::Ambiguous) {
                ambiguous.push_back(AmbiguousSocket{proposal.socket, {proposal.best}});
            }
            continue;
        }
        TracedSocket& socket = sockets[proposal.socket];
        socket.connection = proposal.best.connection;
        socket.side = proposal.best.side;
        socket.match = SocketMatch::BytesTiming;
        socket.byteTiming = proposal.best;
        socket.runnerUpScore = proposal.runnerUp;
        socket.sentBase = proposal.best.sentBase;
        socket.receivedBase = proposal.best.receivedBase;
        socket.streamBasesKnown = true;
    }
    std::sort(ambiguous.begin(), ambiguous.end(),
              [](const AmbiguousSocket& a, const AmbiguousSocket& b) { return a.socket < b.socket; });
}

}  // namespace tcpscope
