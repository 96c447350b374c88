#pragma once
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "capture/capture_reader.hpp"
#include "live/packet_source.hpp"
#include "live/pcap_capture.hpp"

namespace tcpscope {

/// Exit statuses of tcpscope-capture, so that the reading side knows what failed.
namespace helperexit {
inline constexpr int kOk = 0;
inline constexpr int kUsage = 2;
inline constexpr int kFailed = 3;
inline constexpr int kPermissionDenied = 4;
inline constexpr int kNoSuchDevice = 5;
inline constexpr int kBadFilter = 6;
}  // namespace helperexit

/// The line tcpscope-capture writes to its statistics descriptor after a batch (at most a few
/// times a second) and at the end: "captured=N dropped_kernel=N dropped_interface=N".
std::string formatHelperStats(const CaptureStats& stats);
/// Parses a line of formatHelperStats(); false if it is not one.
bool parseHelperStats(const std::string& line, CaptureStats& stats);

/// What to ask the helper to record besides the packets (tcpscope-capture --syscalls --pid/--comm):
/// the socket system calls of these processes (both empty: every process), which come in the
/// stream's custom blocks, handed to `onCustomBlock` on the capture thread as they come.
struct HelperSyscalls {
    std::vector<uint32_t> pids;
    std::vector<std::string> commands;
    /// How often the helper writes the calls recorded (--calls-block-ms): soon enough for a verdict
    /// while the capture runs.
    std::chrono::milliseconds blockInterval{50};
    CustomBlockListener onCustomBlock;
};

/// A live capture made by the capture helper (tcpscope-capture, which holds the capabilities)
/// and read as pcapng from its standard output over a pipe, with the existing capture reader.
/// Its kernel counters come over a second pipe, its error messages over a third.
class HelperCapture final : public PacketSource {
public:
    /// Starts `helperPath` on the device (recording `syscalls` too, if given) and reads the pcapng
    /// section header. Throws LiveCaptureError with the helper's own message (and its kind) if it
    /// cannot capture, or if it cannot be run at all (e.g. the user is not in the group allowed to run it).
    HelperCapture(const std::string& helperPath, const LiveCaptureOptions& options,
                  std::optional<HelperSyscalls> syscalls = std::nullopt);
    ~HelperCapture() override;
    HelperCapture(const HelperCapture&) = delete;
    HelperCapture& operator=(const HelperCapture&) = delete;

    /// Reads packets until the helper ends its stream (after stop(), or on its own error).
    void run(PacketSink& sink) override;
    /// Sends SIGTERM to the helper, which stops capturing and closes the stream cleanly.
    void stop() override;
    [[nodiscard]] CaptureStats stats() const override;
    /// The device, filter and snapshot length asked for; the link type is known after the first packet.
    [[nodiscard]] const CaptureDescription& description() const override { return description_; }
    /// What the helper wrote on its standard error (its last lines).
    [[nodiscard]] std::string messages() const;

private:
    void readSideChannels(int statsFd, int errorFd);
    /// Waits for the helper to exit; returns its exit status (128 + signal if killed).
    int reap();
    [[noreturn]] void failWithHelperMessage(int status, const std::string& fallback);

    std::string helperPath_;
    CaptureDescription description_;
    mutable std::mutex pidMutex_;  // stop() never signals a reaped helper
    pid_t pid_ = -1;
    std::unique_ptr<CaptureReader> reader_;
    std::thread sideChannels_;
    std::atomic<bool> stopSent_{false};
    std::atomic<uint64_t> captured_{0};
    std::atomic<uint64_t> droppedByKernel_{0};
    std::atomic<uint64_t> droppedByInterface_{0};
    mutable std::mutex messagesMutex_;
    std::string messages_;
};

}  // namespace tcpscope
