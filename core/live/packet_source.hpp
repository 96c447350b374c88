#pragma once
#include <cstdint>
#include <string>

#include "capture/raw_packet.hpp"

namespace tcpscope {

/// The kernel's counters of a live capture (pcap_stats), readable from any thread.
struct CaptureStats {
    uint64_t captured = 0;            ///< packets handed to tcpscope
    uint64_t droppedByKernel = 0;     ///< ps_drop: no room in the capture buffer
    uint64_t droppedByInterface = 0;  ///< ps_ifdrop: dropped by the interface or its driver
};

/// What a live source captures, for the file it is written to and the report.
struct CaptureDescription {
    std::string device;       ///< interface name, e.g. "lo" or "any"
    std::string filter;       ///< BPF capture filter, empty for every packet
    uint32_t snapLength = 0;  ///< bytes kept per packet
    uint32_t linkType = 0;    ///< LINKTYPE_* of the packets (0 until known)
    bool nanosecond = false;  ///< timestamps have nanosecond precision
    bool viaHelper = false;   ///< captured by tcpscope-capture and read over a pipe
};

/// Receives captured packets on the capture thread. An exception thrown by the sink ends run()
/// with that exception.
class PacketSink {
public:
    virtual ~PacketSink() = default;
    /// One packet; `packet.data` is valid during the call only.
    virtual void onPacket(const RawPacket& packet) = 0;
    /// After each batch the system delivered at once: the moment to flush files.
    virtual void onBatchEnd() {}
};

/// A source of live packets: libpcap in this process (PcapCapture), or the capture helper
/// over a pipe (HelperCapture). Opened by its constructor, so that errors show before any thread starts.
class PacketSource {
public:
    virtual ~PacketSource() = default;
    /// Delivers packets to `sink` on the calling thread until stop() or the end of the source.
    /// Throws LiveCaptureError if capturing fails.
    virtual void run(PacketSink& sink) = 0;
    /// Makes run() return after the batch in hand; callable from any thread, any number of times.
    virtual void stop() = 0;
    /// The latest counters (updated by the capture thread).
    [[nodiscard]] virtual CaptureStats stats() const = 0;
    [[nodiscard]] virtual const CaptureDescription& description() const = 0;
};

}  // namespace tcpscope
