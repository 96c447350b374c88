#include "capture/capture_source.hpp"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

#include "live/helper_capture.hpp"

namespace tcpscope::ui {

QString captureHelperPath() {
    const QString fromEnvironment = qEnvironmentVariable("TCPSCOPE_CAPTURE_HELPER");
    if (!fromEnvironment.isEmpty()) {
        return fromEnvironment;
    }
    const QString sibling = QCoreApplication::applicationDirPath() + QStringLiteral("/tcpscope-capture");
    if (QFileInfo::exists(sibling)) {
        return sibling;
    }
    return QStandardPaths::findExecutable(QStringLiteral("tcpscope-capture"));
}

std::unique_ptr<PacketSource> openCaptureSource(const LiveCaptureOptions& options) {
    try {
        return std::make_unique<PcapCapture>(options);
    } catch (const LiveCaptureError& error) {
        if (error.kind() != LiveErrorKind::PermissionDenied) {
            throw;
        }
    }
    const QString helper = captureHelperPath();
    if (helper.isEmpty()) {
        // Where `cmake --install` puts it; the fix then is to install it and give it the capabilities.
        throw LiveCaptureError(
            LiveErrorKind::PermissionDenied,
            QStringLiteral("%1: capturing needs CAP_NET_RAW and CAP_NET_ADMIN, and the capture helper tcpscope-capture "
                           "is neither next to tcpscope nor on PATH; install it (cmake --install sets it up), or run "
                           "once: sudo setcap cap_net_raw,cap_net_admin+eip /usr/local/bin/tcpscope-capture")
                .arg(QString::fromStdString(options.device))
                .toStdString());
    }
    return std::make_unique<HelperCapture>(helper.toStdString(), options);
}

QString permissionFix(const QString& message) {
    static const QRegularExpression setcap(QStringLiteral(R"(sudo setcap \S+ [^\s,;()]+)"));
    static const QRegularExpression usermod(QStringLiteral(R"(sudo usermod -aG \S+ [^\s,;()]+)"));
    for (const QRegularExpression* command : {&setcap, &usermod}) {
        const QRegularExpressionMatch match = command->match(message);
        if (match.hasMatch()) {
            return match.captured(0);
        }
    }
    return {};
}

}  // namespace tcpscope::ui
