#pragma once
#include <compare>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <vector>

#include "tcp/chunked_store.hpp"

namespace tcpscope {

/// A list read like a vector (random access: the standard algorithms sort and search it), held in
/// a ChunkedStore's chunks: growing never copies it, and while a ChunkSpill is on it lives in the
/// spill file, not on the heap: for lists of an entry per finding, or per group of findings
/// (hundreds of thousands at 100 M packets). No entry is ever released.
template <typename T, size_t ChunkEntries>
class ChunkedList {
public:
    ChunkedList() = default;
    ChunkedList(std::initializer_list<T> entries) {
        for (const T& entry : entries) {
            push_back(entry);
        }
    }
    explicit ChunkedList(const std::vector<T>& entries) {
        for (const T& entry : entries) {
            push_back(entry);
        }
    }
    /// Takes over `chunks`, none of whose entries may have been released.
    explicit ChunkedList(ChunkedStore<T, ChunkEntries>&& chunks) : chunks_(std::move(chunks)) {}
    /// `count` default entries (two threads may then write different ones).
    explicit ChunkedList(size_t count) : chunks_(count) {}

    [[nodiscard]] size_t size() const { return chunks_.size(); }
    [[nodiscard]] bool empty() const { return chunks_.empty(); }
    T& operator[](size_t index) { return chunks_[index]; }
    const T& operator[](size_t index) const { return chunks_[index]; }
    T& front() { return chunks_[0]; }
    const T& front() const { return chunks_[0]; }
    T& back() { return chunks_[size() - 1]; }
    const T& back() const { return chunks_[size() - 1]; }
    void push_back(T entry) { chunks_.append() = std::move(entry); }
    T& emplace_back() { return chunks_.append(); }
    /// Adds default entries until there are `count` (two threads may then write different ones).
    void growTo(size_t count) { chunks_.growTo(count); }
    void clear() { chunks_ = ChunkedStore<T, ChunkEntries>{}; }

    /// Walks the entries by position: random access, as a vector's.
    template <typename List, typename Value>
    class BasicIterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = Value*;
        using reference = Value&;

        BasicIterator() = default;
        BasicIterator(List* list, size_t index) : list_(list), index_(static_cast<difference_type>(index)) {}
        Value& operator*() const { return (*list_)[static_cast<size_t>(index_)]; }
        Value* operator->() const { return &**this; }
        Value& operator[](difference_type offset) const { return *(*this + offset); }
        BasicIterator& operator++() { return *this += 1; }
        BasicIterator operator++(int) {
            BasicIterator before = *this;
            ++*this;
            return before;
        }
        BasicIterator& operator--() { return *this -= 1; }
        BasicIterator operator--(int) {
            BasicIterator before = *this;
            --*this;
            return before;
        }
        BasicIterator& operator+=(difference_type offset) {
            index_ += offset;
            return *this;
        }
        BasicIterator& operator-=(difference_type offset) { return *this += -offset; }
        friend BasicIterator operator+(BasicIterator at, difference_type offset) { return at += offset; }
        friend BasicIterator operator+(difference_type offset, BasicIterator at) { return at += offset; }
        friend BasicIterator operator-(BasicIterator at, difference_type offset) { return at -= offset; }
        friend difference_type operator-(const BasicIterator& a, const BasicIterator& b) { return a.index_ - b.index_; }
        bool operator==(const BasicIterator& other) const { return index_ == other.index_; }
        auto operator<=>(const BasicIterator& other) const { return index_ <=> other.index_; }

    private:
        List* list_ = nullptr;
        difference_type index_ = 0;
    };
    using iterator = BasicIterator<ChunkedList, T>;
    using const_iterator = BasicIterator<const ChunkedList, const T>;
    iterator begin() { return {this, 0}; }
    iterator end() { return {this, size()}; }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

private:
    ChunkedStore<T, ChunkEntries> chunks_;
};

}  // namespace tcpscope
