#include "report/syscalls_text.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "text/display_text.hpp"

namespace tcpscope {

namespace {

// "yy", "history: connect", "bytes-timing: 38 of 40 calls fit, score 37.5 against 4.0".
std::string matchText(const TracedSocket& socket) {
    if (socket.match == SocketMatch::BytesTiming) {
        const ByteTimingScore& score = socket.byteTiming;
        return fmt::format("bytes-timing: {} of {} calls fit, score {:.1f} against {:.1f} for any other", score.fittingCalls,
                           score.comparedCalls, score.score, socket.runnerUpScore);
    }
    if (socket.match == SocketMatch::Connect || socket.match == SocketMatch::Accept) {
        return fmt::format("history: {}()", socketHistoryCall(socket.match));
    }
    return socketMatchName(socket.match);
}

}  // namespace

void writeSyscallsText(std::ostream& out, const StraceAlignment& alignment) {
    fmt::print(out, "\nSystem call traces ({})\n", alignment.logs.size());
    for (uint32_t index = 0; index < alignment.logs.size(); ++index) {
        const AlignedLog& aligned = alignment.logs[index];
        const StraceLog& log = aligned.log;
        const ClockFit& clock = aligned.clock;
        fmt::print(out, "  {}: {} ({}), pids {}, {} calls, {} lines not understood\n",
                   displayText(fmt::format("{}", fmt::join(aligned.files, " ")), LineBreaks::Spaces),
                   log.format.describe(), straceTimeBaseName(log.format.timeBase), fmt::join(log.pids(), ","),
                   log.records.size(), log.stats.unparsedLines);
        if (aligned.lostCalls) {
            fmt::print(out, "    recorded with the capture: {}\n",
                       *aligned.lostCalls == 0
                           ? std::string("no call lost")
                           : fmt::format("{} calls LOST (the recorder's ring buffer was full): a stall among them "
                                         "may go without a verdict",
                                         *aligned.lostCalls));
        }
        std::string zone;
        if (log.format.timeBase == StraceTimeBase::TimeOfDay) {
            zone = fmt::format(", time zone UTC{:+03d}:{:02d}{}", clock.tzOffsetMinutes / 60,
                               std::abs(clock.tzOffsetMinutes % 60), clock.tzGiven ? " (given)" : " (best fit)");
        }
        fmt::print(out, "    clock: offset {:.3f} ms to the capture ({}{}); {} writes matched, {:.0f}% left within 1 ms "
                        "(90% within {:.3f} ms)\n",
                   static_cast<double>(clock.residualNs) / 1e6, clock.method, zone, clock.matchedWrites,
                   clock.promptShare * 100, clock.p90PromptMs);
        if (clock.searched) {
            fmt::print(out, "    clock found in the writes alone (no socket's endpoints in the log): {} of {} writes "
                            "followed by a segment of their size at that offset\n",
                       clock.searchPeakWrites, clock.searchWrites);
        }
        for (const TracedSocket& socket : alignment.sockets) {
            if (socket.log == index && socket.connection != kNoConnection) {
                fmt::print(out, "    pid {} fd {} is the {} of flow #{} (by {}){}\n", socket.pid, socket.fd,
                           sideName(socket.side), socket.connection, matchText(socket),
                           socket.nodelaySet ? ", TCP_NODELAY set" : "");
            }
        }
        // Sockets refused for the same candidates are one line with their count: a log of another
        // capture can leave hundreds of them.
        std::vector<std::pair<std::string, std::vector<const TracedSocket*>>> refusedByCandidates;
        for (const AmbiguousSocket& refused : alignment.ambiguous) {
            const TracedSocket& socket = alignment.sockets[refused.socket];
            if (socket.log != index) {
                continue;
            }
            std::vector<std::string> candidates;
            for (const ByteTimingScore& candidate : refused.candidates) {
                candidates.push_back(fmt::format("{} of flow #{} (score {:.1f})", sideName(candidate.side),
                                                 candidate.connection, candidate.score));
            }
            const std::string fit = fmt::format("{}", fmt::join(candidates, ", "));
            auto group = std::find_if(refusedByCandidates.begin(), refusedByCandidates.end(),
                                      [&](const auto& entry) { return entry.first == fit; });
            if (group == refusedByCandidates.end()) {
                group = refusedByCandidates.insert(refusedByCandidates.end(), {fit, {}});
            }
            group->second.push_back(&socket);
        }
        for (const auto& [fit, sockets] : refusedByCandidates) {
            const TracedSocket& first = *sockets.front();
            if (sockets.size() == 1) {
                fmt::print(out, "    pid {} fd {} is not tied to a flow: its calls fit {} about equally\n", first.pid,
                           first.fd, fit);
            } else {
                fmt::print(out,
                           "    {} sockets (the first pid {} fd {}) are not tied to a flow: the calls of each fit {} "
                           "about equally\n",
                           sockets.size(), first.pid, first.fd, fit);
            }
        }
    }
}

}  // namespace tcpscope
