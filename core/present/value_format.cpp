#include "present/value_format.hpp"

#include <cmath>
#include <ctime>

#include <fmt/format.h>

#include "decode/decoded_packet.hpp"

namespace tcpscope {

double epochSeconds(int64_t tsNs) {
    const int64_t micros = tsNs >= 0 ? (tsNs + 500) / 1000 : (tsNs - 500) / 1000;
    return static_cast<double>(micros) / 1e6;
}

std::string utcTimestamp(int64_t tsNs) {
    constexpr int64_t kNsPerSecond = 1'000'000'000;
    int64_t seconds = tsNs / kNsPerSecond;
    int64_t fractionNs = tsNs % kNsPerSecond;
    if (fractionNs < 0) {
        fractionNs += kNsPerSecond;
        --seconds;
    }
    const auto asTime = static_cast<time_t>(seconds);
    std::tm utc{};
    gmtime_r(&asTime, &utc);
    return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:06}", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                       utc.tm_hour, utc.tm_min, utc.tm_sec, fractionNs / 1000);
}

double milliseconds(int64_t durationNs) { return std::round(static_cast<double>(durationNs) / 1e3) / 1e3; }

std::string tcpFlagsText(uint8_t tcpFlags) {
    std::string text;
    if ((tcpFlags & tcpflag::kSyn) != 0) text += 'S';
    if ((tcpFlags & tcpflag::kFin) != 0) text += 'F';
    if ((tcpFlags & tcpflag::kPsh) != 0) text += 'P';
    if ((tcpFlags & tcpflag::kRst) != 0) text += 'R';
    if ((tcpFlags & tcpflag::kUrg) != 0) text += 'U';
    if ((tcpFlags & tcpflag::kEce) != 0) text += 'E';
    if ((tcpFlags & tcpflag::kCwr) != 0) text += 'W';
    if ((tcpFlags & tcpflag::kAck) != 0) text += '.';
    return text.empty() ? "none" : text;
}

RelativeNumbers relativeNumbers(const Connection& connection, const IndexedPacket& packet) {
    const Side sender = packet.fromServer ? Side::Server : Side::Client;
    const SequenceSummary& own = connection.sequence[sideIndex(sender)];
    const SequenceSummary& peer = connection.sequence[sideIndex(otherSide(sender))];
    RelativeNumbers numbers;
    numbers.seq = packet.seq - own.baseSeq;
    numbers.ack = (packet.tcpFlags & tcpflag::kAck) != 0 ? packet.ack - peer.baseSeq : 0;
    return numbers;
}

std::string activeCloserName(const Connection& connection) {
    return connection.hasActiveCloser ? std::string(sideName(connection.activeCloser)) : "none";
}

std::string humanDuration(int64_t durationNs) {
    const double ms = static_cast<double>(durationNs) / 1e6;
    if (ms < 1) {
        return fmt::format("{:.3f} ms", ms);
    }
    if (ms < 1000) {
        return fmt::format("{:.1f} ms", ms);
    }
    return fmt::format("{:.2f} s", ms / 1000);
}

std::string reportDuration(double ms) {
    return ms >= 1000 ? fmt::format("{:.2f} s", ms / 1000) : fmt::format("{:.1f} ms", ms);
}

}  // namespace tcpscope
