#pragma once
#include <cstdint>

namespace tcpscope {

/// Sequence numbers relative to one side's initial sequence number, unwrapped: each new value is
/// taken as the one nearest to the previous (segments and ACKs never jump by 2 GiB).
class RelativeSequence {
public:
    explicit RelativeSequence(uint32_t base) : base_(base) {}
    int64_t operator()(uint32_t raw) {
        const uint32_t relative = raw - base_;
        const auto step = static_cast<int32_t>(relative - static_cast<uint32_t>(last_));
        last_ += step;
        return last_;
    }

private:
    uint32_t base_;
    int64_t last_ = 0;
};

}  // namespace tcpscope
