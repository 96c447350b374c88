#pragma once
#include <signal.h>

#include <atomic>
#include <functional>
#include <thread>

namespace tcpscope::cli {

/// SIGINT and SIGTERM taken by one thread with sigwait, which calls the stop given: no work in a
/// signal handler. Made before any other thread starts, so every thread inherits the blocked mask;
/// the mask is restored when it goes.
class StopSignals {
public:
    StopSignals();
    ~StopSignals();
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

    /// From now on the first SIGINT or SIGTERM calls `stop` with its number (on the signal thread).
    void stopOnSignal(std::function<void(int signal)> stop);

private:
    sigset_t signals_{};
    sigset_t previous_{};
    std::atomic<bool> done_{false};
    std::thread thread_;
};

}  // namespace tcpscope::cli
