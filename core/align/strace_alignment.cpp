#include "align/strace_alignment.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "align/byte_timing_match.hpp"
#include "align/clock_search.hpp"
#include "align/connection_segments.hpp"
#include "align/log_time.hpp"
#include "align/socket_matching.hpp"
#include "align/syscall_links.hpp"
#include "strace/strace_file_name.hpp"
#include "strace/strace_reader.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kNsPerSecond = 1'000'000'000;
constexpr int64_t kNsPerMinute = 60 * kNsPerSecond;
constexpr int64_t kNsPerDay = 86'400 * kNsPerSecond;
constexpr int64_t kTimeZoneStepNs = 15 * kNsPerMinute;   // time zones are whole quarter hours
constexpr int64_t kPromptNs = 1'000'000;                 // a write whose bytes leave within 1 ms
constexpr int64_t kOtherHostSkewNs = 2 * kNsPerSecond;   // an epoch log this far off comes from another clock
constexpr int64_t kMaxHostSkewNs = 3600 * kNsPerSecond;  // further off, it is a log of another time, not another clock
constexpr int64_t kMaxZoneNs = 38 * 60 * kNsPerMinute;   // UTC-12 to UTC+14, and the log's date a day off
constexpr int64_t kSearchHalfWidthNs = 10 * kNsPerSecond; // clocks of two hosts this far apart are still found
constexpr int64_t kMeasuredToleranceNs = 1'000'000;      // offset fitted from matched writes (or given)
constexpr int64_t kSearchedToleranceNs = 500'000;        // offset from the search alone (its pile is 250 us wide)
constexpr int64_t kMinToleranceNs = 100'000;             // never tighter than this
constexpr int kMatchRounds = 3;

int64_t median(std::vector<int64_t> values) {
    std::nth_element(values.begin(), values.begin() + static_cast<ptrdiff_t>(values.size() / 2), values.end());
    return values[values.size() / 2];
}

int64_t percentile(std::vector<int64_t> values, double share) {
    const auto position = static_cast<size_t>(share * static_cast<double>(values.size() - 1));
    std::nth_element(values.begin(), values.begin() + static_cast<ptrdiff_t>(position), values.end());
    return values[position];
}

// The most common value after rounding to `step`.
int64_t roundedMode(const std::vector<int64_t>& values, int64_t step) {
    std::map<int64_t, size_t> counts;
    for (int64_t value : values) {
        const auto rounded = static_cast<int64_t>(std::llround(static_cast<double>(value) / static_cast<double>(step)));
        ++counts[rounded];
    }
    const auto best = std::max_element(counts.begin(), counts.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    return best->first * step;
}

// Where a log's times start on the capture's clock before any estimate: epoch logs are already
// there (but for a capture far from the epoch, whose clock counts from its own origin); time-of-day
// logs count from the midnight (UTC) of the capture's first day.
int64_t timeBaseNs(const StraceLog& log, TimeOrigin origin, int64_t captureFirstNs) {
    switch (log.format.timeBase) {
        case StraceTimeBase::TimeOfDay: {
            if (origin.isEpoch()) {
                return captureFirstNs - (captureFirstNs % kNsPerDay);
            }
            const EpochTime first = origin.absolute(captureFirstNs);
            const int64_t secondOfDay = ((first.seconds % 86'400) + 86'400) % 86'400;
            return captureFirstNs - (secondOfDay * kNsPerSecond + first.nanoseconds);
        }
        case StraceTimeBase::Epoch: {
            // strace's epoch times end in 2262: a far capture's origin is past them, and held at
            // kLogTimeReachNs its calls stay far from every packet (the log then fits no part of the capture).
            const std::optional<int64_t> shift = origin.shiftFromNs(TimeOrigin{});
            return heldNs(shift.value_or(origin.epochSeconds > 0 ? -kLogTimeReachNs : kLogTimeReachNs), kLogTimeReachNs);
        }
        case StraceTimeBase::Relative:
        case StraceTimeBase::None: break;
    }
    return 0;
}

// The time zone a zone offset (log clock to UTC, within a day or two) stands for.
void setTimeZone(ClockFit& fit, int64_t zoneNs) {
    const int64_t zoneWithinDay = ((zoneNs % kNsPerDay) + kNsPerDay + kNsPerDay / 2) % kNsPerDay - kNsPerDay / 2;
    fit.tzOffsetMinutes = static_cast<int>(-zoneWithinDay / kNsPerMinute);
}

// The coarse offset: time base, time zone (or the anchor of a relative log).
int64_t coarseOffset(const AlignedLog& aligned, const std::vector<TracedSocket>& sockets,
                     const ConnectionStore& connections, TimeOrigin origin, int64_t captureFirstNs,
                     const StraceClockOptions& options, ClockFit& fit) {
    const StraceLog& log = aligned.log;
    const int64_t base = timeBaseNs(log, origin, captureFirstNs);
    const std::vector<int64_t> samples = handshakeOffsetSamples(sockets, connections, base);
    fit.fromHandshakes = !samples.empty() && log.format.timeBase != StraceTimeBase::None;
    switch (log.format.timeBase) {
        case StraceTimeBase::TimeOfDay: {
            int64_t zone = 0;
            if (options.tzOffsetMinutes) {
                fit.tzGiven = true;
                zone = -int64_t{*options.tzOffsetMinutes} * kNsPerMinute;
                // The local date may be the day before or after the capture's UTC date.
                if (!samples.empty()) {
                    const int64_t shift = median(samples) - zone;
                    zone += static_cast<int64_t>(std::llround(static_cast<double>(shift) / kNsPerDay)) * kNsPerDay;
                }
            } else if (!samples.empty()) {
                zone = roundedMode(samples, kTimeZoneStepNs);
            }
            setTimeZone(fit, zone);
            return base + zone;
        }
        case StraceTimeBase::Epoch:
            // Same host: nothing to add. Another host: its clock may be seconds off (not a day: the
            // same endpoints on another day are another log's, which then fits no part of the capture).
            if (!samples.empty() && std::llabs(median(samples)) > kOtherHostSkewNs &&
                std::llabs(median(samples)) <= kMaxHostSkewNs) {
                return base + median(samples);
            }
            return base;
        case StraceTimeBase::Relative:
        case StraceTimeBase::None:
            if (!samples.empty()) {
                return median(samples);
            }
            return log.records.empty() ? 0 : captureFirstNs - log.records.front().tsNs;
    }
    return 0;
}

void fitResidual(const std::vector<int64_t>& samples, const StraceClockOptions& options, ClockFit& fit) {
    fit.matchedWrites = static_cast<uint32_t>(samples.size());
    if (options.offsetMs) {
        fit.offsetGiven = true;
        fit.residualNs = static_cast<int64_t>(std::llround(*options.offsetMs * 1e6));
        fit.method = "given";
    } else if (!samples.empty()) {
        // A segment leaves after the write that made it, at once unless Nagle or the window holds
        // it back: the low end of the delays is the clock offset plus the kernel's path.
        fit.residualNs = percentile(samples, 0.1);
        fit.method = "writes";
    } else {
        fit.method = fit.searched ? "search" : fit.fromHandshakes ? "handshakes" : "none";
    }
    std::vector<int64_t> prompt;
    for (int64_t sample : samples) {
        const int64_t delay = sample - fit.residualNs;
        if (delay >= -kPromptNs && delay <= kPromptNs) {
            prompt.push_back(std::llabs(delay));
        }
    }
    fit.promptShare = samples.empty() ? 0 : static_cast<double>(prompt.size()) / static_cast<double>(samples.size());
    fit.p90PromptMs = prompt.empty() ? 0 : static_cast<double>(percentile(prompt, 0.9)) / 1e6;
}

}  // namespace

const CallLink* StraceAlignment::linkOf(uint32_t socket, uint32_t record) const {
    const auto found = std::lower_bound(links.begin(), links.end(), std::pair{socket, record},
                                        [](const CallLink& link, const std::pair<uint32_t, uint32_t>& key) {
                                            return std::pair{link.socket, link.record} < key;
                                        });
    return found != links.end() && found->socket == socket && found->record == record ? &*found : nullptr;
}

namespace {

// Where to look for the offset of a log whose sockets no endpoint ties to a connection.
ClockSearchWindow searchWindow(const StraceLog& log, const AnalysisEngine& engine, const StraceClockOptions& options) {
    ClockSearchWindow window;
    const int64_t base = timeBaseNs(log, engine.timeOrigin(), engine.firstTsNs());
    switch (log.format.timeBase) {
        case StraceTimeBase::TimeOfDay:
            // Every quarter-hour time zone, on the capture's day and the days beside it.
            window.halfWidthNs = kSearchHalfWidthNs;
            if (options.tzOffsetMinutes) {
                const int64_t zone = -int64_t{*options.tzOffsetMinutes} * kNsPerMinute;
                for (int64_t day : {-kNsPerDay, int64_t{0}, kNsPerDay}) {
                    window.centersNs.push_back(base + zone + day);
                }
            } else {
                for (int64_t zone = -kMaxZoneNs; zone <= kMaxZoneNs; zone += kTimeZoneStepNs) {
                    window.centersNs.push_back(base + zone);
                }
            }
            break;
        case StraceTimeBase::Epoch:
            window.centersNs.push_back(base);
            window.halfWidthNs = kSearchHalfWidthNs;
            break;
        case StraceTimeBase::Relative:
            // Anywhere in the capture.
            if (!log.records.empty()) {
                const int64_t captureSpan = engine.lastTsNs() - engine.firstTsNs();
                const int64_t logSpan = log.records.back().tsNs - log.records.front().tsNs;
                window.centersNs.push_back(engine.firstTsNs() + captureSpan / 2 - log.records.front().tsNs -
                                           logSpan / 2);
                window.halfWidthNs = captureSpan + logSpan + kSearchHalfWidthNs;
            }
            break;
        case StraceTimeBase::None: break;
    }
    return window;
}

// A log tied to the capture's clock by nothing but its writes: the searched offset becomes the
// coarse one (for time-of-day logs, split into time base, time zone and the rest).
void applyClockSearch(const AlignedLog& aligned, const ClockSearch& search, const ClockCandidate& chosen,
                      TimeOrigin origin, int64_t captureFirstNs, ClockFit& fit) {
    fit.searched = true;
    fit.searchWrites = search.writes;
    fit.searchPeakWrites = chosen.peakWrites;
    if (aligned.log.format.timeBase == StraceTimeBase::TimeOfDay) {
        const int64_t base = timeBaseNs(aligned.log, origin, captureFirstNs);
        const int64_t zone = roundedMode({chosen.offsetNs - base}, kTimeZoneStepNs);
        if (!fit.tzGiven) {
            setTimeZone(fit, zone);
        }
        fit.coarseNs = base + zone;
    } else {
        fit.coarseNs = chosen.offsetNs;
    }
    fit.residualNs = chosen.offsetNs - fit.coarseNs;
}

// How well each log's clock is known before the sockets without endpoints are matched.
CallClock callClock(const AlignedLog& aligned, const ClockFit& fit, bool anchored) {
    CallClock clock;
    clock.timed = aligned.log.format.timeBase != StraceTimeBase::None && (anchored || fit.searched || fit.offsetGiven);
    clock.offsetNs = onCaptureClock(fit.coarseNs, fit.residualNs);
    if (fit.searched && !anchored) {
        clock.toleranceNs = kSearchedToleranceNs;
    } else if (fit.matchedWrites > 0 && !fit.offsetGiven) {
        // As far off as the promptest writes spread around the fitted offset (strace prints
        // microseconds; a proxy's copy of bytes it just read lags them by about as much).
        const auto spreadNs = static_cast<int64_t>(fit.p90PromptMs * 2e6);
        clock.toleranceNs = std::clamp(spreadNs, kMinToleranceNs, kMeasuredToleranceNs);
    } else {
        clock.toleranceNs = kMeasuredToleranceNs;
    }
    return clock;
}

// Of the offsets a log's writes suggest, the one the most writes support (the highest pile) under
// which some socket's calls fit a connection.
void chooseSearchedOffset(StraceAlignment& alignment, uint32_t logIndex, const ClockSearch& search,
                          const AnalysisEngine& engine) {
    AlignedLog& aligned = alignment.logs[logIndex];
    std::vector<CallClock> clocks(alignment.logs.size());  // the other logs untimed: not compared here
    std::vector<TracedSocket> sockets;
    for (const TracedSocket& socket : alignment.sockets) {
        if (socket.log == logIndex) {
            sockets.push_back(socket);
        }
    }
    // The highest pile of write-to-segment delays is the clock, if some socket's calls fit a
    // connection under it. Not the best fit: a proxy's sockets mirror each other's bytes a moment
    // apart, so a clock off by that moment fits as well, by tying a socket to the stream it copies.
    for (const ClockCandidate& candidate : search.candidates) {
        ClockFit trial = aligned.clock;
        applyClockSearch(aligned, search, candidate, engine.timeOrigin(), engine.firstTsNs(), trial);
        clocks[logIndex] = callClock(aligned, trial, false);
        std::vector<TracedSocket> tried = sockets;
        std::vector<AmbiguousSocket> ambiguous;
        matchSocketsByBytesAndTiming(tried, alignment.logs, engine, clocks, ambiguous);
        if (std::any_of(tried.begin(), tried.end(),
                        [](const TracedSocket& socket) { return socket.match == SocketMatch::BytesTiming; })) {
            aligned.clock = trial;
            return;
        }
    }
}

// Writes and reads of every tied socket linked to their segments; each log's residual offset
// fitted from them.
LinkResult linkAndFit(StraceAlignment& alignment, const AnalysisEngine& engine, const StraceClockOptions& options) {
    const auto& connections = engine.connections();
    std::vector<bool> wanted(connections.size(), false);
    alignment.connectionSockets.assign(connections.size(), {});
    for (uint32_t s = 0; s < alignment.sockets.size(); ++s) {
        if (alignment.sockets[s].connection != kNoConnection) {
            wanted[alignment.sockets[s].connection] = true;
            alignment.connectionSockets[alignment.sockets[s].connection].push_back(s);
        }
    }
    std::vector<int64_t> coarse;
    for (const AlignedLog& aligned : alignment.logs) {
        coarse.push_back(aligned.clock.coarseNs);
    }
    const ConnectionSegments segments(engine, wanted);
    LinkResult linked = linkSyscallsToSegments(alignment.logs, alignment.sockets, segments, coarse);
    for (uint32_t i = 0; i < alignment.logs.size(); ++i) {
        ClockFit& fit = alignment.logs[i].clock;
        fitResidual(linked.writeDelaySamplesNs[i], options, fit);
        fit.offsetNs = onCaptureClock(fit.coarseNs, fit.residualNs);
    }
    return linked;
}

}  // namespace

StraceAlignment alignStraceLogs(std::vector<AlignedLog> logs, const CaptureAnalysis& capture,
                                const StraceClockOptions& options) {
    return alignStraceLogs(std::move(logs), *capture.engine, options);
}

StraceAlignment alignStraceLogs(std::vector<AlignedLog> logs, const AnalysisEngine& engine,
                                const StraceClockOptions& options) {
    StraceAlignment alignment;
    alignment.logs = std::move(logs);
    alignment.origin = engine.timeOrigin();
    const auto& connections = engine.connections();

    std::vector<int64_t> offsets(alignment.logs.size(), 0);
    for (uint32_t i = 0; i < alignment.logs.size(); ++i) {
        std::vector<TracedSocket> sockets = collectTracedSockets(alignment.logs[i].log, i);
        ClockFit& fit = alignment.logs[i].clock;
        fit.coarseNs = coarseOffset(alignment.logs[i], sockets, connections, engine.timeOrigin(), engine.firstTsNs(),
                                    options, fit);
        offsets[i] = fit.coarseNs;
        alignment.sockets.insert(alignment.sockets.end(), std::make_move_iterator(sockets.begin()),
                                 std::make_move_iterator(sockets.end()));
    }
    // First what the log says of each socket: -yy endpoints, connect() and accept() history.
    matchSocketsToConnections(alignment.sockets, connections, offsets);
    linkAndFit(alignment, engine, options);

    // Then the rest by the bytes and times of their calls, on a clock measured from the sockets
    // tied so far or, if none is, searched for in the writes.
    std::vector<bool> anchored(alignment.logs.size(), false);
    for (const TracedSocket& socket : alignment.sockets) {
        anchored[socket.log] = anchored[socket.log] || socket.connection != kNoConnection;
    }
    for (uint32_t i = 0; i < alignment.logs.size(); ++i) {
        AlignedLog& aligned = alignment.logs[i];
        if (anchored[i] || aligned.clock.offsetGiven || aligned.log.format.timeBase == StraceTimeBase::None) {
            continue;
        }
        const ClockSearch search = searchClockOffset(alignment.sockets, i, aligned.log, engine,
                                                     searchWindow(aligned.log, engine, options));
        chooseSearchedOffset(alignment, i, search, engine);
    }
    // The matching depends on the clock and the clock fit on the matching: match, refit, and
    // match again while the offset still moves by more than the tolerance.
    for (int round = 0; round < kMatchRounds; ++round) {
        std::vector<CallClock> clocks;
        for (uint32_t i = 0; i < alignment.logs.size(); ++i) {
            clocks.push_back(callClock(alignment.logs[i], alignment.logs[i].clock, anchored[i]));
        }
        for (TracedSocket& socket : alignment.sockets) {
            if (socket.match == SocketMatch::BytesTiming) {
                socket.connection = kNoConnection;
                socket.match = SocketMatch::None;
                socket.streamBasesKnown = false;
            }
        }
        alignment.ambiguous.clear();
        matchSocketsByBytesAndTiming(alignment.sockets, alignment.logs, engine, clocks, alignment.ambiguous);
        linkAndFit(alignment, engine, options);
        bool settled = true;
        for (uint32_t i = 0; i < alignment.logs.size(); ++i) {
            anchored[i] = anchored[i] || alignment.logs[i].clock.matchedWrites > 0;
            const CallClock refitted = callClock(alignment.logs[i], alignment.logs[i].clock, anchored[i]);
            settled = settled && refitted.toleranceNs == clocks[i].toleranceNs &&
                      std::llabs(refitted.offsetNs - clocks[i].offsetNs) <= clocks[i].toleranceNs / 2;
        }
        if (settled) {
            break;
        }
    }
    LinkResult linked = linkAndFit(alignment, engine, options);
    alignment.links = std::move(linked.links);
    return alignment;
}

StraceAlignment loadStraceLogs(const std::vector<std::string>& paths, const CaptureAnalysis& capture,
                               const StraceClockOptions& options) {
    std::vector<AlignedLog> logs;
    for (const StraceFileGroup& group : groupStraceFiles(paths)) {
        AlignedLog aligned;
        aligned.files = group.paths;
        aligned.log = parseStraceFiles(group.paths);
        logs.push_back(std::move(aligned));
    }
    return alignStraceLogs(std::move(logs), capture, options);
}

}  // namespace tcpscope
