#pragma once
#include <QString>

#include <memory>

#include "live/live_error.hpp"
#include "live/packet_source.hpp"
#include "live/pcap_capture.hpp"

namespace tcpscope::ui {

/// The capture helper the GUI runs when it may not capture itself: $TCPSCOPE_CAPTURE_HELPER, else
/// tcpscope-capture next to the GUI, else on PATH; empty if there is none.
QString captureHelperPath();

/// Opens the device in this process when it may (root, or the capabilities), else through the
/// capture helper, as tcpscope-cli capture does. Throws LiveCaptureError; a PermissionDenied one
/// carries the command that fixes it (see permissionFix).
std::unique_ptr<PacketSource> openCaptureSource(const LiveCaptureOptions& options);

/// The one command in a permission error that makes capture work (`sudo setcap ... PATH`, or
/// `sudo usermod -aG GROUP $USER`), or empty.
QString permissionFix(const QString& message);

}  // namespace tcpscope::ui
