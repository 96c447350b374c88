#include "align/strace_alignment.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "align/connection_segments.hpp"
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
// there; time-of-day logs count from the midnight (UTC) of the capture's first day.
int64_t timeBaseNs(const StraceLog& log, int64_t captureFirstNs) {
    if (log.format.timeBase == StraceTimeBase::TimeOfDay) {
        return captureFirstNs - (captureFirstNs % kNsPerDay);
    }
    return 0;
}

// The coarse offset: time base, time zone (or the anchor of a relative log).
int64_t coarseOffset(const AlignedLog& aligned, const std::vector<TracedSocket>& sockets,
                     const std::vector<Connection>& connections, int64_t captureFirstNs,
                     const StraceClockOptions& options, ClockFit& fit) {
    const StraceLog& log = aligned.log;
    const int64_t base = timeBaseNs(log, captureFirstNs);
    const std::vector<int64_t> samples = handshakeOffsetSamples(sockets, connections, base);
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
            const int64_t zoneWithinDay = ((zone % kNsPerDay) + kNsPerDay + kNsPerDay / 2) % kNsPerDay - kNsPerDay / 2;
            fit.tzOffsetMinutes = static_cast<int>(-zoneWithinDay / kNsPerMinute);
            return base + zone;
        }
        case StraceTimeBase::Epoch:
            // Same host: nothing to add. Another host: its clock may be seconds off.
            if (!samples.empty() && std::llabs(median(samples)) > kOtherHostSkewNs) {
                return median(samples);
            }
            return 0;
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
        fit.method = fit.coarseNs != 0 ? "handshakes" : "none";
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

StraceAlignment alignStraceLogs(std::vector<AlignedLog> logs, const CaptureAnalysis& capture,
                                const StraceClockOptions& options) {
    StraceAlignment alignment;
    alignment.logs = std::move(logs);
    const AnalysisEngine& engine = *capture.engine;
    const auto& connections = engine.connections();

    std::vector<int64_t> offsets(alignment.logs.size(), 0);
    for (uint32_t i = 0; i < alignment.logs.size(); ++i) {
        std::vector<TracedSocket> sockets = collectTracedSockets(alignment.logs[i].log, i);
        ClockFit& fit = alignment.logs[i].clock;
        fit.coarseNs = coarseOffset(alignment.logs[i], sockets, connections, engine.firstTsNs(), options, fit);
        offsets[i] = fit.coarseNs;
        alignment.sockets.insert(alignment.sockets.end(), std::make_move_iterator(sockets.begin()),
                                 std::make_move_iterator(sockets.end()));
    }
    matchSocketsToConnections(alignment.sockets, connections, offsets);

    std::vector<bool> wanted(connections.size(), false);
    alignment.connectionSockets.assign(connections.size(), {});
    for (uint32_t s = 0; s < alignment.sockets.size(); ++s) {
        if (alignment.sockets[s].connection != kNoConnection) {
            wanted[alignment.sockets[s].connection] = true;
            alignment.connectionSockets[alignment.sockets[s].connection].push_back(s);
        }
    }
    const ConnectionSegments segments(engine, wanted);
    LinkResult linked = linkSyscallsToSegments(alignment.logs, alignment.sockets, segments, offsets);
    alignment.links = std::move(linked.links);
    for (uint32_t i = 0; i < alignment.logs.size(); ++i) {
        ClockFit& fit = alignment.logs[i].clock;
        fitResidual(linked.writeDelaySamplesNs[i], options, fit);
        fit.offsetNs = fit.coarseNs + fit.residualNs;
    }
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
