#pragma once
#include <QString>

namespace tcpscope::ui {

/// The one command in a capture permission error that makes capture work (`sudo setcap ... PATH`,
/// or `sudo usermod -aG GROUP $USER`), or empty. The GUI opens devices with core/live's
/// openCaptureSource, as tcpscope-cli capture does.
QString permissionFix(const QString& message);

}  // namespace tcpscope::ui
