#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tcpscope {

/// A vector whose first `InlineCount` items live in the object itself, for the short lists a
/// detector keeps per connection side (the segments in flight: one to three in most connections).
/// Reading such a list then costs no second cache miss on memory elsewhere; a list that grows past
/// `InlineCount` moves to the heap and stays there until clear(), which keeps the heap capacity.
template <typename T, size_t InlineCount>
class SmallVector {
public:
    [[nodiscard]] size_t size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    T* begin() { return data(); }
    T* end() { return data() + size_; }
    const T* begin() const { return data(); }
    const T* end() const { return data() + size_; }
    T& front() { return data()[0]; }
    const T& front() const { return data()[0]; }
    T& back() { return data()[size_ - 1]; }
    const T& back() const { return data()[size_ - 1]; }

    void push_back(const T& item) {
        if (!spilled_ && size_ < InlineCount) {
            inline_[size_++] = item;
            return;
        }
        if (!spilled_) {
            heap_.reserve(2 * InlineCount);
            heap_.assign(inline_.begin(), inline_.end());
            spilled_ = true;
        }
        heap_.push_back(item);
        ++size_;
    }
    /// Drops the first `count` items.
    void eraseFront(size_t count) {
        if (spilled_) {
            heap_.erase(heap_.begin(), heap_.begin() + static_cast<std::ptrdiff_t>(count));
        } else {
            std::copy(inline_.begin() + count, inline_.begin() + size_, inline_.begin());
        }
        size_ -= static_cast<uint32_t>(count);
    }
    void clear() {
        heap_.clear();
        spilled_ = false;
        size_ = 0;
    }

private:
    T* data() { return spilled_ ? heap_.data() : inline_.data(); }
    const T* data() const { return spilled_ ? heap_.data() : inline_.data(); }

    std::array<T, InlineCount> inline_{};
    std::vector<T> heap_;  // every item, once there were more than InlineCount
    uint32_t size_ = 0;
    bool spilled_ = false;
};

}  // namespace tcpscope
