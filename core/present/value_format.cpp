#include "present/value_format.hpp"

#include <fmt/format.h>

#include <cmath>

#include "decode/decoded_packet.hpp"

namespace tcpscope {

namespace {

__extension__ typedef __int128 Int128;  // NOLINT: the 128-bit type has no standard name

constexpr int64_t kSecondsPerDay = 86'400;

struct CivilDate {
    int64_t year = 0;
    unsigned month = 0;  // 1 to 12
    unsigned day = 0;    // 1 to 31
};

// The proleptic Gregorian date `days` after 1970-01-01, for any int64 count of days (Howard
// Hinnant's civil_from_days; gmtime's int year ends at 2 billion years).
CivilDate civilFromDays(int64_t days) {
    const Int128 shifted = Int128{days} + 719'468;
    const Int128 era = (shifted >= 0 ? shifted : shifted - 146'096) / 146'097;
    const auto dayOfEra = static_cast<int64_t>(shifted - era * 146'097);  // [0, 146096]
    const int64_t yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36'524 - dayOfEra / 146'096) / 365;  // [0, 399]
    const int64_t dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);               // [0, 365]
    const int64_t monthIndex = (5 * dayOfYear + 2) / 153;  // [0, 11], March first
    CivilDate date;
    date.day = static_cast<unsigned>(dayOfYear - (153 * monthIndex + 2) / 5 + 1);
    date.month = static_cast<unsigned>(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9);
    date.year = static_cast<int64_t>(Int128{yearOfEra} + era * 400 + (date.month <= 2 ? 1 : 0));
    return date;
}

}  // namespace

double epochSeconds(TimeOrigin origin, int64_t tsNs) {
    const int64_t micros = tsNs >= 0 ? (tsNs + 500) / 1000 : (tsNs - 500) / 1000;
    if (origin.isEpoch()) {
        return static_cast<double>(micros) / 1e6;
    }
    return static_cast<double>(Int128{origin.epochSeconds} * 1'000'000 + micros) / 1e6;
}

std::string utcTimestamp(TimeOrigin origin, int64_t tsNs) {
    const EpochTime time = origin.absolute(tsNs);
    int64_t days = time.seconds / kSecondsPerDay;
    int64_t secondOfDay = time.seconds % kSecondsPerDay;
    if (secondOfDay < 0) {
        secondOfDay += kSecondsPerDay;
        --days;
    }
    const CivilDate date = civilFromDays(days);
    return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:06}", date.year, date.month, date.day, secondOfDay / 3600,
                       secondOfDay / 60 % 60, secondOfDay % 60, time.nanoseconds / 1000);
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
