#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "decode/decoded_packet.hpp"
#include "tcp/connection.hpp"
#include "tcp/flow_key.hpp"
#include "tcp/sequence_analysis.hpp"
#include "tcp/v4_tuple_numbers.hpp"

namespace tcpscope {

/// Numbers the distinct 4-tuples in the order they are first seen. It needs nothing but the
/// segments' addresses, so it can run on a reading thread ahead of the ConnectionTable (the hash
/// lookup of the tuple, with its cache misses, is then off the analysing thread).
class TupleNumbering {
public:
    /// The tuple of a segment from `source` to `destination`.
    TupleRef number(const Endpoint& source, const Endpoint& destination);
    /// Asks for the cache lines number(source, destination) will read. Called a few segments ahead
    /// of numbering them, it lets their cache misses overlap instead of following one another.
    void prefetch(const Endpoint& source, const Endpoint& destination) const;
    /// Tuples numbered so far.
    [[nodiscard]] size_t size() const { return v4Numbers_.size() + otherNumbers_.size(); }

private:
    // The tuple of a segment whose endpoints are both IPv4 (false otherwise), and which endpoint sent.
    static bool v4TupleOf(const Endpoint& source, const Endpoint& destination, V4Tuple& tuple, bool& sourceIsLow);

    V4TupleNumbers v4Numbers_;                              // both endpoints IPv4 (or IPv4-mapped IPv6)
    absl::flat_hash_map<FlowKey, uint32_t> otherNumbers_;  // the rest (IPv6)
};

/// Where a segment belongs: its connection and which side sent it.
struct ConnectionLookup {
    Connection* connection = nullptr;
    Side sender = Side::Client;
    std::array<SequenceState, 2>* sequence = nullptr;  ///< its sequence analysis state, by sideIndex(sender)
    bool created = false;        ///< the segment opened a connection (first sight of the tuple or a new generation)
    bool newGeneration = false;  ///< the tuple was used before: `connection->reusedFrom` is the earlier one
};

/// How long after its last packet a closed connection (FINs both ways, or a RST) keeps its sequence
/// state: Linux's TIME_WAIT, in which the peers may still repeat their FINs and last ACKs. After
/// that the state (96 bytes) is released; the tuple stays known, so a later plain SYN on it opens a
/// new generation linked to this connection, and any other late segment revives the state from the
/// connection's sequence summary (its flags may then differ from Wireshark's, which keeps every
/// state to the end).
inline constexpr int64_t kClosedSequenceAgeNs = 60'000'000'000;

/// All connections seen, keyed by 4-tuple, with generations: a SYN on a known tuple whose
/// sequence number differs from the one that tuple's sender started with opens a new
/// connection, and the earlier one is kept (Wireshark splits conversations the same way).
/// A retired connection keeps its Connection record, but its sequence state is released and its
/// tuple forgotten: a later segment of that tuple opens a new connection.
class ConnectionTable {
public:
    /// Finds or creates the connection of `segment` seen at `tsNs` in frame `frame`; `tuple` is
    /// the segment's tuple as numbered by one TupleNumbering for every segment of this table.
    ConnectionLookup lookup(const TcpSegment& segment, const TupleRef& tuple, int64_t tsNs, uint32_t frame);
    /// Asks for the cache lines lookup() will read for a segment of `tuple` (its newest connection's
    /// record and sequence state), to be called a few segments ahead (see TupleNumbering::prefetch).
    void prefetch(const TupleRef& tuple) const {
        if (tuple.tuple < latestByTuple_.size()) {
            prefetchLive(latestByTuple_[tuple.tuple]);
        }
    }

    [[nodiscard]] const ConnectionStore& connections() const { return connections_; }
    [[nodiscard]] const Connection& at(uint32_t id) const { return connections_[id]; }
    [[nodiscard]] size_t size() const { return connections_.size(); }
    /// Lets another thread read, through connections()[id], the records of connections created
    /// before (handed over with a happens-before) while this table creates more: their fields fixed
    /// at creation, and every field of an earlier generation once a newer one took its tuple (see
    /// SegmentObserver). The connection store's chunk table is sized for every id a connection can have.
    void allowConcurrentReads() { connections_.reserveChunkTable(kNoConnection); }
    /// Ends connection `id`'s life in the table (see the class comment); call once per connection.
    void retire(uint32_t id);
    /// `connection` has just closed (its closeTsNs was set): its sequence state is released once
    /// the capture clock is kClosedSequenceAgeNs past its last packet (see releaseClosed).
    void noteClosed(const Connection& connection) { closed_.push_back(Closed{connection.closeTsNs, connection.id}); }
    /// Releases the sequence states of the connections noted closed whose last packet is at least
    /// kClosedSequenceAgeNs before `nowNs` (in the order they closed).
    void releaseClosed(int64_t nowNs);
    /// The input has ended: frees every sequence state and forgets the tuples, keeping the
    /// Connection records (everything the report reads). No segment may be looked up after.
    void endInput() {
        // `= {}` would pick the containers' initializer-list assignment, which keeps their memory.
        sequences_ = {};
        freeSequences_ = std::vector<uint32_t>{};
        latestByTuple_ = ChunkedStore<Latest, 4096>{};
        closed_ = std::deque<Closed>{};
    }
    /// Bytes held by the connection records and by the slots of sequence states (held at once).
    [[nodiscard]] size_t bytesHeld() const {
        return connections_.bytesHeld() + sequences_.bytesHeld() + freeSequences_.capacity() * sizeof(uint32_t);
    }
    /// Connections holding a sequence state (live, or closed within kClosedSequenceAgeNs).
    [[nodiscard]] size_t sequenceStatesHeld() const { return sequences_.size() - freeSequences_.size(); }

private:
    static constexpr uint32_t kNoSequence = UINT32_MAX;
    // A tuple's newest generation and its sequence state's slot (kNoSequence once released): only
    // the newest generation of a tuple is looked up, so only it holds a state. Side by side, so that
    // the one read that finds the connection finds its state too.
    struct Latest {
        uint32_t id = kNoConnection;
        uint32_t sequence = kNoSequence;
    };

    // Asks for the cache lines of `latest`'s record and sequence state.
    void prefetchLive(const Latest& latest) const;
    Connection& create(const TcpSegment& segment, uint32_t tuple, bool sourceIsLow, int64_t tsNs, uint32_t frame);
    // A slot for a new sequence state, a default one.
    uint32_t takeSequence();
    // Gives `latest`'s sequence state back to the free slots, if it holds one.
    void releaseSequence(Latest& latest);
    // A segment came for `connection` after its sequence state was released: a new state, as the
    // connection's sequence summary left it.
    uint32_t reviveSequence(const Connection& connection);
    // The tuple entry of `connection` if it is the newest generation of its tuple and holds a state.
    [[nodiscard]] Latest* holderOf(const Connection& connection);

    // By tuple number; in chunks (in the spill file while one is on): growing never holds the old
    // and a new array at once.
    ChunkedStore<Latest, 4096> latestByTuple_;
    ConnectionStore connections_;
    // Slots taken by a connection when it opens (or a late segment revives its state) and given back
    // when it retires, ages past TIME_WAIT or a newer generation takes its tuple: their memory follows
    // the states held at once, not every connection seen, and no chunk is freed and allocated again.
    ChunkedStore<std::array<SequenceState, 2>, 1024> sequences_;
    std::vector<uint32_t> freeSequences_;  // slots given back, the last one reused first (still in the cache)
    struct Closed {
        int64_t closeTsNs;  // as noted: a connection that reopened and closed again is noted again
        uint32_t id;
    };
    std::deque<Closed> closed_;  // connections noted closed whose sequence state is still held, in closing order
};

}  // namespace tcpscope
