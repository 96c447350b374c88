#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "capture/capture_error.hpp"
#include "capture/raw_packet.hpp"

namespace tcpscope {

/// What kind of file a reader found, for the report's capture summary.
struct CaptureFormat {
    std::string container;    ///< "pcap", "pcap-ns" (nanosecond pcap) or "pcapng"
    std::string compression;  ///< "none", "gzip" or "zstd"
};

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
    /// Bytes of the file (compressed bytes for compressed files) consumed so far, for progress.
    [[nodiscard]] virtual uint64_t bytesConsumed() const = 0;
    /// Size of the file in bytes, or 0 when unknown (a pipe).
    [[nodiscard]] virtual uint64_t fileSize() const = 0;
    [[nodiscard]] virtual const std::string& path() const = 0;
    /// Comments of the file's sections (pcapng shb_comment), in file order; empty for pcap.
    [[nodiscard]] virtual const std::vector<std::string>& sectionComments() const;
};

}  // namespace tcpscope
