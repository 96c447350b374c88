#pragma once
#include <QSettings>
#include <QString>

#include <cstdint>
#include <optional>

#include "live/capture_file_writer.hpp"
#include "live/pcap_capture.hpp"
#include "recorder/syscall_recorder.hpp"

namespace tcpscope::ui {

/// What the capture dialog asks for, as tcpscope-cli capture's options: the device, the capture
/// filter, the snapshot length and the pcapng file (or ring of files) the packets are kept in.
/// Kept in the settings between runs (except the file name, which is new for every capture).
struct CaptureSettings {
    QString device = QStringLiteral("lo");
    QString filter;                     ///< BPF capture filter (tcpdump syntax), empty for every packet
    uint32_t snapLength = 262144;       ///< bytes kept per packet
    QString outputPath;                 ///< the pcapng file; with a ring NAME_00001.pcapng, ...
    uint64_t ringFileBytes = 0;         ///< a new file once one reaches this size (0: one file)
    uint32_t ringFiles = 0;             ///< keep only the newest this many ring files (0: all)
    /// "Also record the system calls of": a pid or a command name (capture --syscalls --pid/--comm), empty for none.
    QString syscallProcess;

    [[nodiscard]] LiveCaptureOptions captureOptions() const;
    [[nodiscard]] CaptureFileOptions fileOptions() const;
    /// Whose system calls to record (syscallProcess: all digits a pid, else a command name), or none.
    [[nodiscard]] std::optional<SyscallRecorderFilter> syscallFilter() const;

    /// A new file name for a capture on `device`: tcpscope-captures/DEVICE-YYYYMMDD-HHMMSS.pcapng in the temporary directory.
    static QString defaultOutputPath(const QString& device);
    static CaptureSettings load(const QSettings& settings);
    void save(QSettings& settings) const;
};

}  // namespace tcpscope::ui
