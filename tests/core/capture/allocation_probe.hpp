#pragma once
// Watches heap allocations, so a test can check that a hostile length in a file never turns
// into a large allocation. Uses the sanitizer allocator hooks in ASan builds and a replaced
// operator new otherwise.
#include <cstddef>

namespace tcpscope::testing {

/// Records the largest single allocation made between start() and largest().
class AllocationProbe {
public:
    AllocationProbe();
    ~AllocationProbe();
    AllocationProbe(const AllocationProbe&) = delete;
    AllocationProbe& operator=(const AllocationProbe&) = delete;

    /// Bytes of the largest allocation since construction.
    [[nodiscard]] size_t largest() const;
};

}  // namespace tcpscope::testing
