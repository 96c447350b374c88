#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

#include "tcp/chunk_memory.hpp"

namespace tcpscope {

/// A growing array of `T` indexed densely from 0, in fixed chunks that are never moved: growing
/// never copies the entries or holds an old and a new array at once (a vector's doubling does, at
/// its peak), and a reference to an entry stays valid while its chunk is held. Entries can be
/// released in any order; a chunk is freed once all of its entries are released (a long capture
/// keeps only the chunks of connections still alive). Released entries must not be read again;
/// iteration skips freed chunks. The chunks come from chunk_memory: in a spill file while a
/// ChunkSpill is on.
template <typename T, size_t ChunkEntries = 1024>
class ChunkedStore {
    static_assert((ChunkEntries & (ChunkEntries - 1)) == 0, "chunks of a power of two entries");

public:
    ChunkedStore() = default;
    /// `count` default entries.
    explicit ChunkedStore(size_t count) { growTo(count); }
    ChunkedStore(std::initializer_list<T> entries) {
        for (const T& entry : entries) {
            append(entry);
        }
    }
    ChunkedStore(ChunkedStore&&) noexcept = default;
    ChunkedStore& operator=(ChunkedStore&&) noexcept = default;
    ChunkedStore(const ChunkedStore& other) { *this = other; }
    ChunkedStore& operator=(const ChunkedStore& other) {
        if (this != &other) {
            chunks_.clear();
            released_ = other.released_;
            size_ = other.size_;
            for (const auto& chunk : other.chunks_) {
                chunks_.push_back(chunk ? copyOf(chunk.get()) : nullptr);
            }
        }
        return *this;
    }

    [[nodiscard]] size_t size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    T& operator[](size_t index) { return chunks_[index / ChunkEntries]->entries[index % ChunkEntries]; }
    const T& operator[](size_t index) const { return chunks_[index / ChunkEntries]->entries[index % ChunkEntries]; }
    /// The entry at `index`; throws std::out_of_range past the end or for a released entry's freed chunk.
    const T& at(size_t index) const {
        if (index >= size_ || !holds(index)) {
            throw std::out_of_range("ChunkedStore::at");
        }
        return (*this)[index];
    }
    const T& front() const { return (*this)[0]; }
    const T& back() const { return (*this)[size_ - 1]; }
    /// True if the chunk of entry `index` is held (not freed after all its entries were released).
    [[nodiscard]] bool holds(size_t index) const {
        const size_t chunk = index / ChunkEntries;
        return chunk < chunks_.size() && chunks_[chunk] != nullptr;
    }

    /// Adds a default entry at the end and returns it.
    T& append() {
        growTo(size_ + 1);
        return (*this)[size_ - 1];
    }
    T& append(const T& entry) { return append() = entry; }
    /// Makes size() at least `entries`, with default entries.
    void growTo(size_t entries) {
        while (chunks_.size() * ChunkEntries < entries) {
            const size_t chunk = chunks_.size();
            const bool allReleased = chunk < released_.size() && released_[chunk] == ChunkEntries;
            chunks_.push_back(allReleased ? nullptr : newChunk());
        }
        if (entries > size_) {
            size_ = entries;
        }
    }
    /// Asks for the cache lines of entries `first` .. `first + count - 1` (in one chunk) ahead of
    /// their use, for writing; nothing if they are past the end or their chunk was freed.
    void prefetch(size_t first, size_t count = 1) const {
        if (first >= size_ || !holds(first)) {
            return;
        }
        constexpr uintptr_t kLine = 64;
        const auto begin = reinterpret_cast<uintptr_t>(&(*this)[first]);
        const uintptr_t end = begin + count * sizeof(T);
        for (uintptr_t line = begin & ~(kLine - 1); line < end; line += kLine) {
            __builtin_prefetch(reinterpret_cast<const void*>(line), 1);
        }
    }
    /// Makes room in the chunk table for `entries` entries, so that growing up to there never moves
    /// the table: another thread may then read entries appended earlier (handed over with a
    /// happens-before), through operator[] only, while this one appends more. Takes address space
    /// only (a pointer per chunk; its pages are touched as chunks are added).
    void reserveChunkTable(size_t entries) { chunks_.reserve((entries + ChunkEntries - 1) / ChunkEntries); }
    /// Entries `first` .. `first + count - 1` are no longer needed (each released once); frees
    /// every chunk whose entries are all released.
    void release(size_t first, size_t count = 1) {
        for (size_t index = first; index < first + count; ++index) {
            const size_t chunk = index / ChunkEntries;
            if (chunk >= released_.size()) {
                released_.resize(chunk + 1, 0);
            }
            if (++released_[chunk] == ChunkEntries && chunk < chunks_.size()) {
                chunks_[chunk].reset();
            }
        }
    }
    /// Bytes held by the chunks (not counting the small chunk table).
    [[nodiscard]] size_t bytesHeld() const {
        size_t held = 0;
        for (const auto& chunk : chunks_) {
            held += chunk ? ChunkEntries * sizeof(T) : 0;
        }
        return held;
    }

    /// Walks the held entries 0 .. size() - 1 in order, skipping freed chunks.
    template <typename Store, typename Value>
    class BasicIterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = Value*;
        using reference = Value&;

        BasicIterator() = default;
        BasicIterator(Store* store, size_t index) : store_(store), index_(index) { skipFreed(); }
        Value& operator*() const { return (*store_)[index_]; }
        Value* operator->() const { return &(*store_)[index_]; }
        BasicIterator& operator++() {
            ++index_;
            skipFreed();
            return *this;
        }
        BasicIterator operator++(int) {
            BasicIterator before = *this;
            ++*this;
            return before;
        }
        bool operator==(const BasicIterator& other) const { return index_ == other.index_; }
        /// Position of the entry in the store.
        [[nodiscard]] size_t index() const { return index_; }

    private:
        void skipFreed() {
            while (index_ < store_->size() && !store_->holds(index_)) {
                index_ = (index_ / ChunkEntries + 1) * ChunkEntries;
            }
            if (index_ > store_->size()) {
                index_ = store_->size();
            }
        }

        Store* store_ = nullptr;
        size_t index_ = 0;
    };
    using iterator = BasicIterator<ChunkedStore, T>;
    using const_iterator = BasicIterator<const ChunkedStore, const T>;
    iterator begin() { return iterator(this, 0); }
    iterator end() { return iterator(this, size_); }
    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, size_); }

private:
    // Entries start on a cache line (malloc's 16-byte alignment would let a 256-byte record
    // straddle five lines instead of four), so that one entry costs as few misses as it can.
    struct alignas(64) Chunk {
        T entries[ChunkEntries];
    };

    struct ChunkDeleter {
        void operator()(Chunk* chunk) const noexcept {
            chunk->~Chunk();
            chunk_memory::release(chunk, sizeof(Chunk));
        }
    };
    using ChunkPointer = std::unique_ptr<Chunk, ChunkDeleter>;

    static ChunkPointer newChunk() {
        void* memory = chunk_memory::allocate(sizeof(Chunk));
        try {
            return ChunkPointer(new (memory) Chunk());
        } catch (...) {
            chunk_memory::release(memory, sizeof(Chunk));
            throw;
        }
    }
    static ChunkPointer copyOf(const Chunk* chunk) {
        auto copy = newChunk();
        for (size_t index = 0; index < ChunkEntries; ++index) {
            copy->entries[index] = chunk->entries[index];
        }
        return copy;
    }

    std::vector<ChunkPointer> chunks_;
    std::vector<uint32_t> released_;  // per chunk, entries released so far
    size_t size_ = 0;
};

}  // namespace tcpscope
