#pragma once
#include <cstdint>
#include <string>

#include "capture/time_origin.hpp"
#include "tcp/connection.hpp"
#include "tcp/packet_index.hpp"

namespace tcpscope {

/// Epoch seconds with microsecond fractions, the time form of the JSON report, of the capture time
/// `tsNs` after `origin` (AnalysisEngine::timeOrigin()). Far from the epoch a double holds fewer
/// fractional digits: the value is then the nearest double.
double epochSeconds(TimeOrigin origin, int64_t tsNs);
/// "2026-11-21 03:09:55.123456" in UTC, the time form of the text report, of the capture time
/// `tsNs` after `origin`; any year from -292 billion to 292 billion.
std::string utcTimestamp(TimeOrigin origin, int64_t tsNs);
/// Milliseconds, rounded to microseconds.
double milliseconds(int64_t durationNs);
/// TCP flags in tcpdump's notation: "S", "S.", "P.", "F.", "R", "." (ACK), with E/W/U when set.
std::string tcpFlagsText(uint8_t tcpFlags);
/// Sequence and acknowledgement numbers relative to each side's first sequence number, as
/// Wireshark shows them by default.
struct RelativeNumbers {
    uint32_t seq = 0;
    uint32_t ack = 0;
};
RelativeNumbers relativeNumbers(const Connection& connection, const IndexedPacket& packet);
/// "client", "server" or "none" for the side that closed first.
std::string activeCloserName(const Connection& connection);
/// "40.1 ms", "2.35 s", "0.250 ms": a duration in the unit a reader expects (the sequence diagram's
/// gaps, the Mermaid text, the incident report's capture line).
std::string humanDuration(int64_t durationNs);
/// "41.2 ms", "1.72 s": a wait or a wall-clock time as the incident report and its pictures write it.
std::string reportDuration(double ms);

}  // namespace tcpscope
