#include "align/strace_fit.hpp"

#include <absl/container/flat_hash_set.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <cstdlib>
#include <utility>

#include "text/display_text.hpp"

namespace tcpscope {

namespace {

// More lines not understood than calls: the text is something else that happens to hold a line or
// two of the form name(...) = result.
bool looksLikeStrace(const StraceLog& log) {
    return !log.records.empty() && log.stats.unparsedLines <= log.records.size();
}

std::string secondsText(int64_t ns) {
    return fmt::format("{:.1f} s", static_cast<double>(ns) / 1e9);
}

// A clock that only a shift of more than this fits: not a skew of the traced host's clock (nor a
// time zone, which the coarse offset holds), but calls of another time.
constexpr int64_t kMaxResidualNs = int64_t{3600} * 1'000'000'000;

std::optional<std::string> timeMismatch(const StraceAlignment& alignment, uint32_t index,
                                        const AnalysisEngine& engine) {
    const StraceLog& log = alignment.logs[index].log;
    if (engine.counters().frames == 0 || log.format.timeBase == StraceTimeBase::None) {
        return std::nullopt;  // no clock to compare: a log without times is laid along the capture
    }
    const ClockFit& clock = alignment.logs[index].clock;
    const bool absolute = log.format.timeBase == StraceTimeBase::Epoch || log.format.timeBase == StraceTimeBase::TimeOfDay;
    if (absolute && !clock.offsetGiven && std::llabs(clock.residualNs) > kMaxResidualNs) {
        return fmt::format("its calls fit the capture only with their clock moved by {:.1f} h (a log of another "
                           "time: the same endpoints on another day)",
                           static_cast<double>(clock.residualNs) / 3.6e12);
    }
    const int64_t firstCallNs = alignment.captureTsNs(index, log.records.front());
    const int64_t lastCallNs = alignment.captureTsNs(index, log.records.back());
    if (lastCallNs < engine.firstTsNs()) {
        return fmt::format("its {} calls end {} before the capture's first packet", log.records.size(),
                           secondsText(engine.firstTsNs() - lastCallNs));
    }
    if (firstCallNs > engine.lastTsNs()) {
        return fmt::format("its {} calls begin {} after the capture's last packet", log.records.size(),
                           secondsText(firstCallNs - engine.lastTsNs()));
    }
    return std::nullopt;
}

// A log of connect() calls alone (strace -e connect) shows no socket being made, so none can be
// followed; its calls still name their servers, and one the capture holds ties the log to it.
bool connectsToCapturedServer(const StraceLog& log, const ConnectionStore& connections) {
    absl::flat_hash_set<std::pair<std::array<uint8_t, 16>, uint16_t>> servers;
    for (const SyscallRecord& record : log.records) {
        if (record.kind == SyscallKind::Connect && record.hasAddress()) {
            servers.insert({record.address.address.bytes, record.address.port});
        }
    }
    if (servers.empty()) {
        return false;
    }
    for (const Connection& connection : connections) {
        if (servers.contains({connection.server.address.bytes, connection.server.port})) {
            return true;
        }
    }
    return false;
}

std::optional<std::string> socketMismatch(const StraceAlignment& alignment, uint32_t index,
                                          const AnalysisEngine& engine) {
    size_t sockets = 0;
    for (const TracedSocket& socket : alignment.sockets) {
        if (socket.log != index || socket.kindUnsure) {
            continue;
        }
        if (socket.connection != kNoConnection) {
            return std::nullopt;
        }
        ++sockets;
    }
    if (sockets == 0) {
        if (connectsToCapturedServer(alignment.logs[index].log, engine.connections())) {
            return std::nullopt;
        }
        return std::string("it shows no TCP socket, so nothing in it can be tied to the capture");
    }
    return fmt::format(
        "none of its {} TCP sockets is tied to a connection of the capture (by endpoints, "
        "connect/accept or the bytes and times of its calls)",
        sockets);
}

}  // namespace

std::optional<StraceMismatch> findStraceMismatch(const StraceAlignment& alignment, const AnalysisEngine& engine) {
    for (uint32_t index = 0; index < alignment.logs.size(); ++index) {
        const AlignedLog& aligned = alignment.logs[index];
        // The names as the system gave them may hold any bytes; the reason is one line of text.
        const std::string files = displayText(fmt::format("{}", fmt::join(aligned.files, " ")), LineBreaks::Spaces);
        const StraceLog& log = aligned.log;
        if (!looksLikeStrace(log)) {
            return StraceMismatch{StraceMismatchKind::NotStrace, index,
                                  fmt::format("{}: not an strace log: {} of its {} lines are system calls as strace "
                                              "prints them",
                                              files, log.records.size(), log.stats.lines - log.stats.blankLines)};
        }
        if (std::optional<std::string> reason = timeMismatch(alignment, index, engine)) {
            return StraceMismatch{StraceMismatchKind::NoOverlap, index,
                                  fmt::format("{}: does not fit the capture: {}", files, *reason)};
        }
        if (std::optional<std::string> reason = socketMismatch(alignment, index, engine)) {
            return StraceMismatch{StraceMismatchKind::NoSocketTied, index,
                                  fmt::format("{}: does not fit the capture: {}", files, *reason)};
        }
    }
    return std::nullopt;
}

}  // namespace tcpscope
