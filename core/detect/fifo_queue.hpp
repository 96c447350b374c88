#pragma once
#include <cstddef>
#include <vector>

namespace tcpscope {

/// A first-in first-out queue over one vector, for the small time windows detectors keep per
/// host or port pool. Unlike std::deque (whose libstdc++ version allocates about 600 bytes as soon
/// as it exists, and whose move may throw, so a vector of them copies on growth) an empty queue
/// costs nothing, and the popped front is reclaimed once it is at least half of the storage.
template <typename T>
class FifoQueue {
public:
    [[nodiscard]] bool empty() const { return head_ == items_.size(); }
    [[nodiscard]] size_t size() const { return items_.size() - head_; }
    [[nodiscard]] const T& front() const { return items_[head_]; }
    /// The item `index` places behind the front (0: the front).
    [[nodiscard]] const T& operator[](size_t index) const { return items_[head_ + index]; }
    void push_back(const T& item) { items_.push_back(item); }
    void pop_front() {
        ++head_;
        if (head_ == items_.size()) {
            items_.clear();
            head_ = 0;
        } else if (head_ >= kCompactAfter && head_ * 2 >= items_.size()) {
            items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
            head_ = 0;
        }
    }

private:
    static constexpr size_t kCompactAfter = 64;

    std::vector<T> items_;
    size_t head_ = 0;
};

}  // namespace tcpscope
