#include "core/live/live_test_support.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>

#include "live/live_error.hpp"
#include "live/pcap_capture.hpp"

namespace tcpscope::test {

bool mayCapture() {
    try {
        const PcapCapture probe(LiveCaptureOptions{"lo", "", 128, 1u << 20, false});
        return true;
    } catch (const LiveCaptureError& error) {
        WARN("live capture tests skipped: " << error.what());
        return false;
    }
}

uint16_t livePort(int salt) { return static_cast<uint16_t>(20000 + (::getpid() * 13 + salt * 101) % 20000); }

}  // namespace tcpscope::test
