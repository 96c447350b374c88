#include "core/capture/allocation_probe.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TCPSCOPE_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TCPSCOPE_TEST_ASAN 1
#endif

namespace {
std::atomic<bool> probing{false};
std::atomic<size_t> largestAllocation{0};

void noteAllocation(size_t size) {
    if (probing.load(std::memory_order_relaxed)) {
        size_t seen = largestAllocation.load(std::memory_order_relaxed);
        while (size > seen && !largestAllocation.compare_exchange_weak(seen, size)) {
        }
    }
}
}  // namespace

#ifdef TCPSCOPE_TEST_ASAN
// Declared here because GCC does not ship <sanitizer/allocator_interface.h>; the runtime has it.
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*mallocHook)(const volatile void*, size_t),
                                                         void (*freeHook)(const volatile void*));

namespace {
void mallocHook(const volatile void* /*pointer*/, size_t size) { noteAllocation(size); }
void freeHook(const volatile void* /*pointer*/) {}
[[maybe_unused]] const int installed = __sanitizer_install_malloc_and_free_hooks(mallocHook, freeHook);
}  // namespace

#else

void* operator new(size_t size) {
    noteAllocation(size);
    if (void* pointer = std::malloc(size == 0 ? 1 : size)) {
        return pointer;
    }
    throw std::bad_alloc();
}
void* operator new[](size_t size) { return operator new(size); }
void operator delete(void* pointer) noexcept { std::free(pointer); }
void operator delete[](void* pointer) noexcept { std::free(pointer); }
void operator delete(void* pointer, size_t /*size*/) noexcept { std::free(pointer); }
void operator delete[](void* pointer, size_t /*size*/) noexcept { std::free(pointer); }

#endif

namespace tcpscope::testing {

AllocationProbe::AllocationProbe() {
    largestAllocation = 0;
    probing = true;
}

AllocationProbe::~AllocationProbe() { probing = false; }

size_t AllocationProbe::largest() const { return largestAllocation.load(); }

}  // namespace tcpscope::testing
