#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tcpscope {

/// A first-in first-out queue in a ring over one vector, for the time windows detectors keep (the
/// expiries of every TIME_WAIT of the last minute, the closes of a port pool). Unlike std::deque
/// (whose libstdc++ version allocates about 600 bytes as soon as it exists, and whose move may
/// throw, so a vector of them copies on growth) an empty queue costs nothing, and the storage is
/// at most one and a half times the longest the queue has been (a vector that drops its front in
/// bulk holds up to four times as much at its peak). A ring cycles through all of its storage, so
/// every byte of it is touched: W1's queue of TIME_WAITs, about 530,000 long, took 16 MiB in a ring
/// doubled to 2^20 entries and takes 11 MiB grown by half.
template <typename T>
class FifoQueue {
public:
    [[nodiscard]] bool empty() const { return size_ == 0; }
    [[nodiscard]] size_t size() const { return size_; }
    /// Items the ring holds room for.
    [[nodiscard]] size_t capacity() const { return items_.size(); }
    [[nodiscard]] const T& front() const { return items_[head_]; }
    /// The item `index` places behind the front (0: the front).
    [[nodiscard]] const T& operator[](size_t index) const { return items_[wrap(head_ + index)]; }
    void push_back(const T& item) {
        if (size_ == items_.size()) {
            grow();
        }
        items_[wrap(size_t{head_} + size_)] = item;
        ++size_;
    }
    void pop_front() {
        head_ = static_cast<uint32_t>(wrap(size_t{head_} + 1));
        --size_;
    }

private:
    // A position within two lengths of the ring's start, wrapped into the ring.
    [[nodiscard]] size_t wrap(size_t position) const {
        return position >= items_.size() ? position - items_.size() : position;
    }
    // Grows the ring by half (1, 2, 4, 7, 11, 17, ...), the items moved to its start in order.
    void grow() {
        std::vector<T> larger(items_.size() + items_.size() / 2 + 1);
        for (size_t index = 0; index < size_; ++index) {
            larger[index] = (*this)[index];
        }
        items_ = std::move(larger);
        head_ = 0;
    }

    std::vector<T> items_;
    uint32_t head_ = 0;  // a queue holds at most one item per connection: 32 bits suffice
    uint32_t size_ = 0;
};

}  // namespace tcpscope
