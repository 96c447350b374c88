#include "engine/allocator_settings.hpp"

#include <malloc.h>

namespace tcpscope {

void tuneAllocatorForLargeAnalyses() {
#if defined(__GLIBC__)
    constexpr int kMiB = 1024 * 1024;
    // Failures leave glibc's defaults in place, which are correct, only slower.
    mallopt(M_TOP_PAD, 64 * kMiB);
    mallopt(M_TRIM_THRESHOLD, 256 * kMiB);
#endif
}

}  // namespace tcpscope
