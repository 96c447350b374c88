#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "capture/capture_output.hpp"

namespace tcpscope {

/// The header fields of a classic pcap file (version 2.4).
struct PcapFileHeader {
    uint32_t linkType = 1;           ///< LINKTYPE_* value (1: Ethernet)
    uint32_t snapLength = 262144;    ///< no record holds more bytes than this
    bool nanoseconds = true;         ///< magic a1b23c4d (ns times) instead of a1b2c3d4 (us times)
    bool bigEndian = false;          ///< every field big-endian, as a big-endian host writes them
};

inline constexpr size_t kPcapFileHeaderBytes = 24;
inline constexpr size_t kPcapRecordHeaderBytes = 16;

/// Writes the 24 bytes of `header` at `out`.
void encodePcapFileHeader(const PcapFileHeader& header, uint8_t* out);
/// Writes the 16 bytes of a record header at `out`: `tsNs` in the file's resolution (cut, not
/// rounded), then the captured and original lengths.
void encodePcapRecordHeader(const PcapFileHeader& header, int64_t tsNs, uint32_t capturedLength,
                            uint32_t originalLength, uint8_t* out);

/// Writes a classic pcap file record by record through one buffer, so a multi-gigabyte capture
/// takes a few thousand write() calls and is never held in memory; or builds the file in memory.
/// Shared by the benchmark generator and the tests. Throws CaptureWriteError (file, offset, reason).
class PcapWriter {
public:
    /// Creates (or truncates) `path`; writes it `bufferBytes` at a time.
    PcapWriter(const std::string& path, const PcapFileHeader& header, size_t bufferBytes = size_t{1} << 20);
    /// Builds the file in memory: bytes() holds it.
    explicit PcapWriter(const PcapFileHeader& header);
    /// Flushes what is left (errors are dropped here: call finish() to see them) and closes.
    ~PcapWriter();
    PcapWriter(const PcapWriter&) = delete;
    PcapWriter& operator=(const PcapWriter&) = delete;

    /// Writes a record header and returns where its `capturedLength` bytes go, for the caller to
    /// fill; the pointer is valid until the next call. Throws std::invalid_argument for a record
    /// over the snapshot length or an original length below the captured one.
    uint8_t* beginRecord(int64_t tsNs, uint32_t capturedLength, uint32_t originalLength);
    /// Writes a whole record.
    void writeRecord(int64_t tsNs, std::span<const uint8_t> data, uint32_t originalLength);
    /// Flushes and closes the file. Further records throw.
    void finish();

    [[nodiscard]] const PcapFileHeader& header() const { return header_; }
    /// Bytes of the file so far, headers included.
    [[nodiscard]] uint64_t bytesWritten() const { return (output_ ? output_->offset() : 0) + used_; }
    /// The file built in memory (empty for a writer to a path).
    [[nodiscard]] std::span<const uint8_t> bytes() const { return {buffer_.data(), toMemory_ ? used_ : 0}; }

private:
    void flush();
    void makeRoom(size_t bytes);

    PcapFileHeader header_;
    std::unique_ptr<CaptureOutput> output_;  ///< null when writing to memory
    bool toMemory_ = false;
    bool open_ = true;
    std::vector<uint8_t> buffer_;
    size_t used_ = 0;
};

}  // namespace tcpscope
