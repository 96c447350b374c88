#include "core/live/live_test_support.hpp"

#include <unistd.h>

#include <sstream>

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

// Below Linux's ephemeral range (32768-60999): a client's local port there (another test's, or a
// soak's thousands of connections) would make the test's listen() fail with EADDRINUSE.
uint16_t livePort(int salt) { return static_cast<uint16_t>(20000 + (::getpid() * 13 + salt * 101) % 12000); }

std::string lastLine(const std::string& text) {
    std::istringstream stream(text);
    std::string last;
    for (std::string line; std::getline(stream, line);) {
        if (!line.empty()) {
            last = line;
        }
    }
    return last;
}

std::vector<nlohmann::json> jsonEvents(const std::string& text, const std::string& event) {
    const std::string prefix = "{\"event\":\"" + event + "\",";
    std::vector<nlohmann::json> events;
    size_t begin = 0;
    for (size_t end = text.find('\n'); end != std::string::npos; begin = end + 1, end = text.find('\n', begin)) {
        if (text.compare(begin, prefix.size(), prefix) == 0) {
            events.push_back(nlohmann::json::parse(text.substr(begin, end - begin)));
        }
    }
    return events;
}

}  // namespace tcpscope::test
