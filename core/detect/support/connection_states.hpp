#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tcp/chunked_store.hpp"

namespace tcpscope {

/// A detector's state per connection (`Slots` = 1) or per connection side (`Slots` = 2), indexed
/// by connection id, in a ChunkedStore: growing never copies the states, a reference to an entry
/// stays valid while the connection lives, and the states of retired connections are released
/// (their chunk is freed once every connection in it is retired). Only the entries up to the
/// highest connection looked up count (size(), iteration); all slots of a connection are built
/// at its first lookup.
template <typename State, size_t Slots = 1>
class ConnectionStates {
public:
    State& of(uint32_t connection, size_t slot = 0) {
        const size_t first = size_t{connection} * Slots;
        if (first + Slots > entries_.size()) {
            entries_.growTo(first + Slots);
        }
        return entries_[first + slot];
    }
    /// The `Slots` states of a connection, side by side (one lookup for all of them).
    State* allOf(uint32_t connection) { return &of(connection); }
    /// Asks for the cache lines of a connection's states, if they are built, ahead of their use.
    void prefetch(uint32_t connection) const { entries_.prefetch(size_t{connection} * Slots, Slots); }
    /// The connection is retired: its states are not looked up again.
    void release(uint32_t connection) { entries_.release(size_t{connection} * Slots, Slots); }
    /// The input has ended: frees every state (none is looked up again).
    void clear() { entries_ = {}; }

    /// Entries built so far (Slots per connection), for passes over every state.
    [[nodiscard]] size_t size() const { return entries_.size(); }
    /// False for the entries of retired connections whose chunk was freed.
    [[nodiscard]] bool holds(size_t index) const { return entries_.holds(index); }
    State& operator[](size_t index) { return entries_[index]; }
    const State& operator[](size_t index) const { return entries_[index]; }

    /// Bytes held by the states' chunks.
    [[nodiscard]] size_t bytesHeld() const { return entries_.bytesHeld(); }

    /// Walks the held entries in order.
    auto begin() { return entries_.begin(); }
    auto end() { return entries_.end(); }

private:
    // A multiple of Slots so a connection's slots share a chunk.
    static constexpr size_t kChunkEntries = 1024;
    static_assert(kChunkEntries % Slots == 0);

    ChunkedStore<State, kChunkEntries> entries_;
};

/// Records that few connections need at the same time (a handshake under way, a small segment
/// waiting for its ACK, data in flight), numbered from 0 and reused once released, so that their
/// memory follows the records in use at once rather than every connection ever seen. A reference to
/// a record stays valid until it is released (the chunks never move).
template <typename Record>
class RecordPool {
public:
    static constexpr uint32_t kNone = UINT32_MAX;

    /// A default record's number.
    uint32_t take() {
        if (!free_.empty()) {
            const uint32_t index = free_.back();
            free_.pop_back();
            return index;
        }
        records_.append();
        return static_cast<uint32_t>(records_.size() - 1);
    }
    /// Record `index` is no longer used: it is reset (a container keeps its capacity for its next use).
    void release(uint32_t index) {
        Record& record = records_[index];
        if constexpr (requires { record.clear(); }) {
            record.clear();
        } else {
            record = Record{};
        }
        free_.push_back(index);
    }
    /// The input has ended: frees every record (none is used again).
    void clear() {
        records_ = {};
        free_ = std::vector<uint32_t>{};  // `= {}` would keep its memory (initializer-list assignment)
    }
    Record& operator[](uint32_t index) { return records_[index]; }
    const Record& operator[](uint32_t index) const { return records_[index]; }

    /// Records taken and not released.
    [[nodiscard]] size_t inUse() const { return records_.size() - free_.size(); }
    /// Bytes held by the records' chunks and the free list.
    [[nodiscard]] size_t bytesHeld() const { return records_.bytesHeld() + free_.capacity() * sizeof(uint32_t); }

private:
    ChunkedStore<Record, 256> records_;
    std::vector<uint32_t> free_;
};

}  // namespace tcpscope
