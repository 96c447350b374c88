#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "capture/capture_error.hpp"
#include "capture/raw_packet.hpp"
#include "capture/time_origin.hpp"

namespace tcpscope {

/// What kind of file a reader found, for the report's capture summary.
struct CaptureFormat {
    std::string container;    ///< "pcap", "pcap-ns" (nanosecond pcap) or "pcapng"
    std::string compression;  ///< "none", "gzip" or "zstd"
    uint32_t snapLength = 0;  ///< pcap: the file header's snapshot length (pcapng: 0, each interface has its own)
};

/// Where a file ends inside a record: the capture was cut short (copied while it was still being
/// written, a download cut off). The partial record is left out; everything before it is read.
struct CutShort {
    uint64_t recordOffset = 0;  ///< where the partial record (or its header) starts
    uint64_t bytesLeft = 0;     ///< bytes of it in the file
};

/// A pcapng Custom Block (type 0x00000BAD, or 0x40000BAD: not to be copied) met between packets: its
/// Private Enterprise Number and the custom data after it (with the block's padding), valid during
/// the call only.
struct CustomBlock {
    uint32_t type = 0;
    uint32_t enterpriseNumber = 0;
    std::span<const uint8_t> data;
    uint64_t offset = 0;  ///< of the block in the (decompressed) stream
};
/// Receives the custom blocks of a stream as the reader passes them, in stream order.
using CustomBlockListener = std::function<void(const CustomBlock& block)>;

/// Streaming reader of one capture file (pcap or pcapng, optionally gzip or zstd compressed).
/// Formats are recognised by magic bytes, never by file name. "-" reads standard input.
class CaptureReader {
public:
    virtual ~CaptureReader() = default;

    /// Opens `path` and reads its header. Throws CaptureError if it cannot be opened or is no capture.
    static std::unique_ptr<CaptureReader> open(const std::string& path);
    /// Like open(), for a file already in memory (tests, fuzzing); `name` stands for the path in
    /// messages. Uncompressed bytes are read in place.
    static std::unique_ptr<CaptureReader> openMemory(std::string name, std::vector<uint8_t> bytes);

    /// Reads the next frame. Returns false at the end of the file, or after a fatal problem
    /// (which is then in error()); frames before the problem are all delivered.
    virtual bool next(RawPacket& packet) = 0;

    [[nodiscard]] virtual const CaptureFormat& format() const = 0;
    /// Non-fatal problems (a file cut short, a bad option), in the order met.
    [[nodiscard]] virtual const std::vector<InputProblem>& warnings() const = 0;
    /// The problem that stopped reading early, if any.
    [[nodiscard]] virtual const InputProblem* error() const = 0;
    /// Set once the end of the file is reached inside a record (also said as a warning).
    [[nodiscard]] virtual const std::optional<CutShort>& cutShort() const = 0;
    /// What the packets' tsNs count from: the epoch, unless the file's first timed packet lies
    /// outside 1824 to 2116 (TimeOrigin::forFirstPacket); fixed once that packet is read.
    [[nodiscard]] virtual TimeOrigin timeOrigin() const = 0;
    /// Bytes of the file (compressed bytes for compressed files) consumed so far, for progress.
    [[nodiscard]] virtual uint64_t bytesConsumed() const = 0;
    /// Size of the file in bytes, or 0 when unknown (a pipe).
    [[nodiscard]] virtual uint64_t fileSize() const = 0;
    [[nodiscard]] virtual const std::string& path() const = 0;
    /// Comments of the file's sections (pcapng shb_comment, valid UTF-8), in file order; empty for pcap.
    [[nodiscard]] virtual const std::vector<std::string>& sectionComments() const;
    /// Hands every custom block read from now on to `listener` (on the thread calling next()); pcap
    /// has none. What a recording writes besides its packets, read over a pipe as it comes.
    virtual void setCustomBlockListener(CustomBlockListener listener);
};

}  // namespace tcpscope
