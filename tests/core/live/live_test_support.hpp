#pragma once
// What the live capture tests share: whether this process may capture, and ports of their own.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tcpscope::test {

/// The traffic generator: write-write-read exchanges on loopback that stall on Nagle and the delayed ACK.
inline const std::string kWriteWriteRead = TCPSCOPE_SOURCE_DIR "/tests/live/write_write_read.py";
/// A server that stops reading: its receive window stays closed for HOLD seconds (zero_window_stall).
inline const std::string kHeldWindow = TCPSCOPE_SOURCE_DIR "/tests/live/held_window.py";

/// True if this process can open lo for capture (CAP_NET_RAW and CAP_NET_ADMIN, or root);
/// otherwise says why the test is skipped.
bool mayCapture();

/// A port for one test's traffic that other tests, and test programs running at the same time, do not use.
uint16_t livePort(int salt);

/// The last line of `text` that is not empty (the report after a capture's finding lines).
std::string lastLine(const std::string& text);

/// The lines of a capture's JSON finding stream in `text` whose `event` is `event` ("finding",
/// "verdict", ...), parsed; a last line not ended yet (output read while the capture runs) is left out.
std::vector<nlohmann::json> jsonEvents(const std::string& text, const std::string& event);

}  // namespace tcpscope::test
