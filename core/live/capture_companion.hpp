#pragma once
#include "capture/raw_packet.hpp"

namespace tcpscope {

class CaptureFileWriter;

/// Something recorded beside a live capture's packets (the system calls of chosen processes:
/// recorder/live_call_recording.hpp) that names the packets' processes and keeps its own blocks in
/// the capture file. Called by LiveSession on its capture thread, then once by finish().
class CaptureCompanion {
public:
    virtual ~CaptureCompanion() = default;
    /// Before `packet` goes to the file and the analysis: may set its comment (valid until the
    /// next call) and direction.
    virtual void annotate(RawPacket& packet) = 0;
    /// After each batch, before the file is flushed: writes what came meanwhile (`file` may be null
    /// when no file is written).
    virtual void writeInto(CaptureFileWriter* file) = 0;
    /// Once, after the last packet and before the file is closed: stops, and writes the rest.
    virtual void finishInto(CaptureFileWriter* file) = 0;
};

}  // namespace tcpscope
