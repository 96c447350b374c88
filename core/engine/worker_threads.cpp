#include "engine/worker_threads.hpp"

#include <cstdlib>
#include <cstring>
#include <thread>

namespace tcpscope {

bool secondThreadAllowed() {
    const char* threads = std::getenv("TCPSCOPE_THREADS");  // NOLINT(concurrency-mt-unsafe): nothing sets it
    if (threads != nullptr && std::strcmp(threads, "1") == 0) {
        return false;
    }
    return std::thread::hardware_concurrency() > 1;
}

}  // namespace tcpscope
