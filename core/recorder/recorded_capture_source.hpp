#pragma once
#include <memory>

#include "live/capture_source.hpp"
#include "live/packet_source.hpp"
#include "recorder/live_calls.hpp"
#include "recorder/syscall_recorder.hpp"

namespace tcpscope {

/// A live capture with the socket system calls of chosen processes recorded beside it: the packet
/// source and the calls, to be given to one LiveSession (LiveSessionOptions::companion).
struct RecordedCaptureSource {
    std::unique_ptr<PacketSource> packets;
    std::unique_ptr<LiveCalls> calls;
};

/// Opens the device and loads the recorder in this process when it may (root, or the capabilities),
/// else asks the capture helper to record both (`tcpscope-capture --syscalls`) and takes the calls
/// out of its stream (HelperCallStream); options.viaHelper forces the helper. The CLI and the GUI
/// open a capture with --syscalls the same way. Throws LiveCaptureError (the helper's own message
/// when it cannot record), or SyscallRecorderError when root cannot load the recorder.
RecordedCaptureSource openRecordedCaptureSource(const CaptureSourceOptions& options,
                                                const SyscallRecorderFilter& processes);

}  // namespace tcpscope
