#pragma once
#include <memory>
#include <string>

#include "live/packet_source.hpp"
#include "live/pcap_capture.hpp"

namespace tcpscope {

/// The capture helper to run when this process may not capture: `given` if not empty, else
/// $TCPSCOPE_CAPTURE_HELPER, else tcpscope-capture next to this program, else on PATH; empty if
/// there is none.
std::string findCaptureHelper(const std::string& given = {});

/// How to open a live capture.
struct CaptureSourceOptions {
    LiveCaptureOptions capture;
    bool viaHelper = false;   ///< go through the helper even if this process could capture
    std::string helperPath;   ///< the helper to run; empty: findCaptureHelper()
};

/// The capture helper these options choose (findCaptureHelper). Throws a PermissionDenied
/// LiveCaptureError that says how to install one when there is none.
std::string requireCaptureHelper(const CaptureSourceOptions& options);

/// Opens the device in this process when it may (root, or the capabilities), else through the
/// capture helper. The GUI and tcpscope-cli capture open devices the same way. Throws
/// LiveCaptureError; a PermissionDenied one names the command that fixes it.
std::unique_ptr<PacketSource> openCaptureSource(const CaptureSourceOptions& options);

}  // namespace tcpscope
