#include "report/syscalls_text.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

namespace tcpscope {

void writeSyscallsText(std::ostream& out, const StraceAlignment& alignment) {
    fmt::print(out, "\nSystem call traces ({})\n", alignment.logs.size());
    for (uint32_t index = 0; index < alignment.logs.size(); ++index) {
        const AlignedLog& aligned = alignment.logs[index];
        const StraceLog& log = aligned.log;
        const ClockFit& clock = aligned.clock;
        fmt::print(out, "  {}: {} ({}), pids {}, {} calls, {} lines not understood\n", fmt::join(aligned.files, " "),
                   log.format.describe(), straceTimeBaseName(log.format.timeBase), fmt::join(log.pids(), ","),
                   log.records.size(), log.stats.unparsedLines);
        std::string zone;
        if (log.format.timeBase == StraceTimeBase::TimeOfDay) {
            zone = fmt::format(", time zone UTC{:+03d}:{:02d}{}", clock.tzOffsetMinutes / 60,
                               std::abs(clock.tzOffsetMinutes % 60), clock.tzGiven ? " (given)" : " (best fit)");
        }
        fmt::print(out, "    clock: offset {:.3f} ms to the capture ({}{}); {} writes matched, {:.0f}% left within 1 ms "
                        "(90% within {:.3f} ms)\n",
                   static_cast<double>(clock.residualNs) / 1e6, clock.method, zone, clock.matchedWrites,
                   clock.promptShare * 100, clock.p90PromptMs);
        for (const TracedSocket& socket : alignment.sockets) {
            if (socket.log == index && socket.connection != kNoConnection) {
                fmt::print(out, "    pid {} fd {} is the {} of flow #{} (by {}){}\n", socket.pid, socket.fd,
                           sideName(socket.side), socket.connection, socketMatchName(socket.match),
                           socket.nodelaySet ? ", TCP_NODELAY set" : "");
            }
        }
    }
}

}  // namespace tcpscope
