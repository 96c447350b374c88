#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"

namespace tcpscope {

/// One handshake a listen backlog overflow delayed, as the report's picture draws it: a row with
/// the client's SYNs (the first, then each retry on the client's backoff), the server's SYN-ACKs,
/// and the wait from the first SYN to the SYN-ACK that finally answered.
struct RetriedHandshake {
    uint32_t connection = 0;
    std::string client;  ///< "127.0.0.1:49446"
    int64_t firstSynNs = 0;
    std::vector<int64_t> retriedSynsNs;  ///< the SYNs sent again after the first, in order
    std::vector<int64_t> synAcksNs;      ///< every SYN-ACK of the server, in order
    std::optional<int64_t> answerNs;     ///< the first SYN-ACK after the last SYN; nullopt: none came
    int64_t waitNs = 0;                  ///< first SYN to the answer (or to the last SYN, unanswered)
    std::string label;                   ///< "+35.7 s: SYN retried 9x, answered at 03:29:51.934 UTC"
};

/// The delayed handshakes of a cause, the longest waits first chosen, drawn in order of first SYN.
struct HandshakeRetries {
    std::vector<RetriedHandshake> rows;  ///< in order of their first SYN
    size_t leftOut = 0;        ///< delayed handshakes not drawn (shorter waits, or not listed by the detector)
    uint64_t retriedSyns = 0;  ///< SYN retries over the rows drawn
    int64_t startNs = 0;       ///< the first SYN of any row
    int64_t endNs = 0;         ///< the last answer, SYN or SYN-ACK of any row
};

/// The handshakes of the connections the spans of `findings` (indices into analysis.findings,
/// listen backlog overflow findings) name, each read from the packet index: at most `maxRows`,
/// those that waited longest. Empty without a packet index.
HandshakeRetries handshakeRetries(const CaptureAnalysis& analysis, std::span<const size_t> findings, size_t maxRows);

/// "12 more delayed handshakes not drawn: these rows are the longest waits", or "" if none was left out.
std::string handshakesLeftOutText(const HandshakeRetries& retries);

/// What the picture of `retries` shows, for the report's "Picture." line.
std::string handshakeRetriesNote(const HandshakeRetries& retries);

/// "+35.7 s: SYN retried 9x, answered at 03:29:51.934 UTC", "+3.0 s: SYN retried 2x, never answered".
std::string retriedHandshakeLabel(const RetriedHandshake& handshake, TimeOrigin origin);

/// "03:29:51.934": the UTC time of day to the millisecond of the capture time `tsNs` after `origin`.
std::string utcTimeOfDay(TimeOrigin origin, int64_t tsNs);

}  // namespace tcpscope
