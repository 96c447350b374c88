#pragma once
#include <cstdint>
#include <memory>
#include <string>

namespace tcpscope::bench {

/// Streams a classic pcap file (nanosecond magic, little-endian, Ethernet link type) through one
/// large buffer, so a multi-gigabyte capture is written with a few thousand write() calls and is
/// never held in memory. Throws GeneratorError on any failure to open or write.
class PcapFileWriter {
public:
    /// Creates (or truncates) `path` and writes the file header with `snaplen`.
    PcapFileWriter(std::string path, uint32_t snaplen);
    ~PcapFileWriter();
    PcapFileWriter(const PcapFileWriter&) = delete;
    PcapFileWriter& operator=(const PcapFileWriter&) = delete;

    /// Writes a record header and returns where its `capturedLength` bytes (<= snaplen) go;
    /// the pointer is valid until the next call.
    uint8_t* beginRecord(int64_t tsNs, uint32_t capturedLength, uint32_t originalLength);
    /// Flushes and closes the file. Call it once at the end; the destructor only discards.
    void finish();

    [[nodiscard]] uint32_t snaplen() const { return snaplen_; }
    /// Bytes of the file so far, headers included.
    [[nodiscard]] uint64_t bytesWritten() const { return flushedBytes_ + used_; }

private:
    void flush();
    [[noreturn]] void fail(const std::string& reason) const;
    [[noreturn]] void failAt(uint64_t offset, const std::string& reason) const;

    std::string path_;
    uint32_t snaplen_;
    int fd_ = -1;
    std::unique_ptr<uint8_t[]> buffer_;
    size_t used_ = 0;
    uint64_t flushedBytes_ = 0;
};

}  // namespace tcpscope::bench
