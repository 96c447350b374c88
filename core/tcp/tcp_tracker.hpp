#pragma once
#include <cstdint>

#include "decode/decoded_packet.hpp"
#include "tcp/analysis_flags.hpp"
#include "tcp/connection_table.hpp"

namespace tcpscope {

/// What the tracker made of one segment.
struct TrackedSegment {
    Connection* connection = nullptr;  ///< valid until the next call to track()
    Side sender = Side::Client;
    AnalysisFlags analysis = 0;
    bool newConnection = false;
};

/// Rebuilds TCP connections from segments pushed one at a time in capture order: finds the
/// connection (and generation) of each segment, runs the sequence analysis, and keeps the
/// handshake, close and per-direction summaries of every connection up to date.
class TcpTracker {
public:
    /// Tracks one segment seen at `tsNs` in frame `frame`, of tuple `tuple` (see ConnectionTable::lookup).
    TrackedSegment track(const TcpSegment& segment, const TupleRef& tuple, int64_t tsNs, uint32_t frame);

    /// See ConnectionTable::prefetch.
    void prefetch(const TupleRef& tuple) const { table_.prefetch(tuple); }
    [[nodiscard]] const ConnectionTable& table() const { return table_; }
    /// See ConnectionTable::allowConcurrentReads.
    void allowConcurrentReads() { table_.allowConcurrentReads(); }
    /// Retires connection `id` (see ConnectionTable::retire).
    void retire(uint32_t id) { table_.retire(id); }
    /// The input has ended: frees what only tracking further segments needs (ConnectionTable::endInput).
    void endInput() { table_.endInput(); }

private:
    ConnectionTable table_;
};

}  // namespace tcpscope
