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
/// at most twice the longest the queue has been (a vector that drops its front in bulk holds up to
/// four times as much at its peak).
template <typename T>
class FifoQueue {
public:
    [[nodiscard]] bool empty() const { return size_ == 0; }
    [[nodiscard]] size_t size() const { return size_; }
    [[nodiscard]] const T& front() const { return items_[head_]; }
    /// The item `index` places behind the front (0: the front).
    [[nodiscard]] const T& operator[](size_t index) const { return items_[(head_ + index) & (items_.size() - 1)]; }
    void push_back(const T& item) {
        if (size_ == items_.size()) {
            grow();
        }
        items_[(size_t{head_} + size_) & (items_.size() - 1)] = item;
        ++size_;
    }
    void pop_front() {
        head_ = (head_ + 1) & static_cast<uint32_t>(items_.size() - 1);
        --size_;
    }

private:
    // The ring's length stays a power of two, so a position wraps with a mask.
    void grow() {
        std::vector<T> larger(std::max<size_t>(1, items_.size() * 2));
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
