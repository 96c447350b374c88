#include "stop_signals.hpp"

#include <pthread.h>

#include <utility>

namespace tcpscope::cli {

StopSignals::StopSignals() {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals_, &previous_);
}

StopSignals::~StopSignals() {
    if (thread_.joinable()) {
        done_ = true;
        pthread_kill(thread_.native_handle(), SIGTERM);
        thread_.join();
    }
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

void StopSignals::stopOnSignal(std::function<void(int signal)> stop) {
    thread_ = std::thread([this, stop = std::move(stop)] {
        int signal = 0;
        sigwait(&signals_, &signal);
        if (!done_) {
            stop(signal);
        }
    });
}

}  // namespace tcpscope::cli
