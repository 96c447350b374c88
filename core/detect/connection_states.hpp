#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace tcpscope {

/// A detector's state per connection (`Slots` = 1) or per connection side (`Slots` = 2), indexed
/// by connection id. Ids are dense from 0; the entries live in fixed chunks that are never moved,
/// so growing never copies the states or holds the old and the new array at once (a vector's
/// doubling did, at the peak of a million connections), and a reference to an entry stays valid
/// for the store's life. Only the entries up to the highest connection looked up count (size(),
/// iteration); all slots of a connection are built at its first lookup.
template <typename State, size_t Slots = 1>
class ConnectionStates {
public:
    State& of(uint32_t connection, size_t slot = 0) {
        const size_t first = size_t{connection} * Slots;
        if (first + Slots > size_) {
            grow(first + Slots);
        }
        return (*this)[first + slot];
    }

    /// Entries built so far (Slots per connection), for passes over every state.
    [[nodiscard]] size_t size() const { return size_; }
    State& operator[](size_t index) { return chunks_[index / kChunkEntries][index % kChunkEntries]; }
    const State& operator[](size_t index) const { return chunks_[index / kChunkEntries][index % kChunkEntries]; }

    /// Walks entries 0 .. size() - 1 in order.
    class Iterator {
    public:
        Iterator(ConnectionStates& states, size_t index) : states_(&states), index_(index) {}
        State& operator*() const { return (*states_)[index_]; }
        Iterator& operator++() {
            ++index_;
            return *this;
        }
        bool operator==(const Iterator& other) const { return index_ == other.index_; }

    private:
        ConnectionStates* states_;
        size_t index_;
    };
    Iterator begin() { return Iterator(*this, 0); }
    Iterator end() { return Iterator(*this, size_); }

private:
    // A power of two, and a multiple of Slots so a connection's slots share a chunk.
    static constexpr size_t kChunkEntries = 1024;
    static_assert(kChunkEntries % Slots == 0);

    void grow(size_t entries) {
        while (chunks_.size() * kChunkEntries < entries) {
            chunks_.push_back(std::make_unique<State[]>(kChunkEntries));
        }
        size_ = entries;
    }

    std::vector<std::unique_ptr<State[]>> chunks_;
    size_t size_ = 0;
};

}  // namespace tcpscope
