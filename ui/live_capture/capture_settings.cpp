#include "live_capture/capture_settings.hpp"

#include <QDateTime>
#include <QDir>
#include <QStandardPaths>

#include "recorded/call_block.hpp"

namespace tcpscope::ui {

LiveCaptureOptions CaptureSettings::captureOptions() const {
    LiveCaptureOptions options;
    options.device = device.toStdString();
    options.filter = filter.trimmed().toStdString();
    options.snapLength = snapLength;
    return options;
}

CaptureFileOptions CaptureSettings::fileOptions() const {
    CaptureFileOptions options;
    options.path = outputPath.toStdString();
    options.maxFileBytes = ringFileBytes;
    options.maxFiles = ringFileBytes != 0 ? ringFiles : 0;
    if (syscallFilter()) {
        options.application = std::string(kRecordApplication);  // readers scan it for the calls
    }
    return options;
}

std::optional<SyscallRecorderFilter> CaptureSettings::syscallFilter() const {
    const QString process = syscallProcess.trimmed();
    if (process.isEmpty()) {
        return std::nullopt;
    }
    SyscallRecorderFilter filter;
    bool isPid = false;
    const uint32_t pid = process.toUInt(&isPid);
    if (isPid && pid > 0) {
        filter.pids.push_back(pid);
    } else {
        filter.commands.push_back(process.toStdString());
    }
    return filter;
}

QString CaptureSettings::defaultOutputPath(const QString& device) {
    const QDir directory(QStandardPaths::writableLocation(QStandardPaths::TempLocation) +
                         QStringLiteral("/tcpscope-captures"));
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    return directory.filePath(QStringLiteral("%1-%2.pcapng").arg(device.isEmpty() ? QStringLiteral("capture") : device, stamp));
}

CaptureSettings CaptureSettings::load(const QSettings& settings) {
    CaptureSettings loaded;
    loaded.device = settings.value(QStringLiteral("capture/device"), loaded.device).toString();
    loaded.filter = settings.value(QStringLiteral("capture/filter")).toString();
    loaded.snapLength = settings.value(QStringLiteral("capture/snaplen"), loaded.snapLength).toUInt();
    loaded.ringFileBytes = settings.value(QStringLiteral("capture/ringFileBytes"), 0).toULongLong();
    loaded.ringFiles = settings.value(QStringLiteral("capture/ringFiles"), 0).toUInt();
    loaded.syscallProcess = settings.value(QStringLiteral("capture/syscallProcess")).toString();
    loaded.outputPath = defaultOutputPath(loaded.device);
    return loaded;
}

void CaptureSettings::save(QSettings& settings) const {
    settings.setValue(QStringLiteral("capture/device"), device);
    settings.setValue(QStringLiteral("capture/filter"), filter);
    settings.setValue(QStringLiteral("capture/snaplen"), snapLength);
    settings.setValue(QStringLiteral("capture/ringFileBytes"), QVariant::fromValue<qulonglong>(ringFileBytes));
    settings.setValue(QStringLiteral("capture/ringFiles"), ringFiles);
    settings.setValue(QStringLiteral("capture/syscallProcess"), syscallProcess);
}

}  // namespace tcpscope::ui
