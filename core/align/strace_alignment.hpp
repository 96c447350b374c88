#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "align/log_time.hpp"
#include "align/traced_socket.hpp"
#include "analysis/capture_analysis.hpp"
#include "strace/strace_log.hpp"

namespace tcpscope {

/// How the user wants a log's clock handled (both optional: by default everything is estimated).
struct StraceClockOptions {
    std::optional<int> tzOffsetMinutes;  ///< time zone of -t/-tt logs, e.g. +120 for UTC+02:00
    std::optional<double> offsetMs;      ///< fixed residual offset added to the log's times
};

/// How a log's clock was put on the capture's: capture time = log time + offsetNs.
struct ClockFit {
    int64_t offsetNs = 0;         ///< total offset from the log's clock to the capture's
    int64_t coarseNs = 0;         ///< the part from the time base and time zone (or the anchor of -r)
    int64_t residualNs = 0;       ///< the measured rest: clock skew, capture point, rounding
    int tzOffsetMinutes = 0;      ///< time zone found or given (time-of-day logs)
    bool tzGiven = false;
    bool offsetGiven = false;
    uint32_t matchedWrites = 0;   ///< writes matched to the first segment carrying their bytes
    double promptShare = 0;       ///< share of those whose bytes left within 1 ms of the write
    double p90PromptMs = 0;       ///< 90th percentile of the write-to-wire delay of the prompt ones
    std::string method;           ///< "writes", "handshakes", "given", "none"
    bool fromHandshakes = false;  ///< the coarse offset came from the times of the sockets' handshakes
    bool searched = false;        ///< no socket's endpoints were known: the coarse offset was searched in the writes
    uint32_t searchWrites = 0;    ///< writes the search compared
    uint32_t searchPeakWrites = 0;  ///< of them, followed at the found offset by a segment of their size
};

/// One write-like or read-like call tied to the segments that carried its bytes.
struct CallLink {
    uint32_t socket = 0;            ///< index into StraceAlignment::sockets
    uint32_t record = 0;            ///< index into its log's records
    std::vector<uint32_t> frames;   ///< frames of the segments (writes: sent, resent; reads: consumed)
    int64_t firstSegmentTsNs = 0;   ///< capture time of the first of them (0 if none)
};

/// A socket whose writes and reads fit several connections about equally well: not tied to any.
struct AmbiguousSocket {
    uint32_t socket = 0;                     ///< index into StraceAlignment::sockets
    std::vector<ByteTimingScore> candidates;  ///< the close ones, best first
};

/// One strace log (one file, or the NAME.PID files of strace -ff) and its clock.
struct AlignedLog {
    std::vector<std::string> files;
    StraceLog log;
    ClockFit clock;
    /// Calls recorded into a capture (tcpscope-cli record): the ones the recorder could not hand
    /// over (its ring buffer was full). Unset for an strace log.
    std::optional<uint64_t> lostCalls;
};

/// The traced processes' system calls on the capture's time axis: each log's clock offset, each
/// TCP socket tied to its connection, and each write and read tied to its segments.
struct StraceAlignment {
    std::vector<AlignedLog> logs;
    std::vector<TracedSocket> sockets;
    std::vector<CallLink> links;                         ///< sorted by socket, then record
    std::vector<AmbiguousSocket> ambiguous;              ///< sockets refused by bytes-timing matching
    std::vector<std::vector<uint32_t>> connectionSockets;  ///< per connection id: its sockets
    TimeOrigin origin;  ///< what the capture's clock counts from (AnalysisEngine::timeOrigin())

    /// A record's time on the capture's clock.
    [[nodiscard]] int64_t captureTsNs(uint32_t log, const SyscallRecord& record) const {
        return onCaptureClock(record.tsNs, logs[log].clock.offsetNs);
    }
    /// The link of a record, or null.
    [[nodiscard]] const CallLink* linkOf(uint32_t socket, uint32_t record) const;
};

/// Parses nothing: takes parsed logs and puts them on the capture's axis. `files` names each log.
StraceAlignment alignStraceLogs(std::vector<AlignedLog> logs, const CaptureAnalysis& capture,
                                const StraceClockOptions& options);
/// The same on an engine alone (a live capture's, between two batches of packets: the findings
/// are not read).
StraceAlignment alignStraceLogs(std::vector<AlignedLog> logs, const AnalysisEngine& engine,
                                const StraceClockOptions& options);

/// Parses the strace files given on the command line (NAME.PID files of one -ff run become one
/// log) and aligns them. Throws CaptureError if a file cannot be read.
StraceAlignment loadStraceLogs(const std::vector<std::string>& paths, const CaptureAnalysis& capture,
                               const StraceClockOptions& options);

}  // namespace tcpscope
