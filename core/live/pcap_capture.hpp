#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <string>

#include "live/packet_source.hpp"

struct pcap;
struct pcap_pkthdr;

namespace tcpscope {

/// How to open a device.
struct LiveCaptureOptions {
    std::string device;                             ///< interface name, "any" for all
    std::string filter;                             ///< BPF capture filter (tcpdump syntax)
    uint32_t snapLength = 262144;                   ///< bytes kept per packet
    /// Kernel capture buffer. With immediate mode each TPACKET_V3 block (snaplen-sized, 256 KiB)
    /// tends to carry one packet, so this is how long the capture thread may be held up (here
    /// 256 blocks: a quarter second at 1000 packets/s) before the kernel drops packets.
    uint32_t bufferBytes = 64u << 20;
    bool promiscuous = false;
    /// 0: immediate mode, each packet delivered at once (live analysis). Otherwise packets come in
    /// batches at most this many milliseconds late: far fewer wakeups, for a recording that only
    /// writes them.
    uint32_t batchTimeoutMs = 0;
};

/// A live capture with libpcap in this process: pcap_create, immediate mode (each packet is
/// delivered at once), nanosecond timestamps where the system has them, the capture filter, and
/// a blocking loop that stop() interrupts with pcap_breakloop (which wakes the blocked read on
/// Linux: libpcap 1.10 polls an eventfd next to the socket). Needs CAP_NET_RAW and CAP_NET_ADMIN.
class PcapCapture final : public PacketSource {
public:
    /// Opens and activates the device. Throws LiveCaptureError (PermissionDenied without the
    /// capabilities, NoSuchDevice, BadFilter, Other), naming the device.
    explicit PcapCapture(const LiveCaptureOptions& options);
    ~PcapCapture() override;
    PcapCapture(const PcapCapture&) = delete;
    PcapCapture& operator=(const PcapCapture&) = delete;

    void run(PacketSink& sink) override;
    void stop() override;
    [[nodiscard]] CaptureStats stats() const override;
    [[nodiscard]] const CaptureDescription& description() const override { return description_; }

private:
    static void onPacket(unsigned char* user, const pcap_pkthdr* header, const unsigned char* bytes);
    void readKernelStats();
    [[noreturn]] void fail(int status, const std::string& what);

    pcap* handle_ = nullptr;
    CaptureDescription description_;
    PacketSink* sink_ = nullptr;
    std::exception_ptr sinkFailure_;  // thrown by the sink inside pcap_dispatch
    std::atomic<bool> stopRequested_{false};
    std::atomic<uint64_t> captured_{0};
    std::atomic<uint64_t> droppedByKernel_{0};
    std::atomic<uint64_t> droppedByInterface_{0};
    int64_t nsPerTick_ = 1000;  // 1 with nanosecond timestamps
    int64_t lastStatsNs_ = 0;
};

}  // namespace tcpscope
