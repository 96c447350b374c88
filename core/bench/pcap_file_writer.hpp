#pragma once
#include <cstdint>
#include <string>

#include "capture/pcap_writer.hpp"

namespace tcpscope::bench {

/// The generator's output: a classic pcap file (nanosecond magic, little-endian, Ethernet link
/// type) streamed through capture/pcap_writer with one large buffer, so a multi-gigabyte capture
/// is written with a few thousand write() calls and is never held in memory. Throws GeneratorError
/// on any failure to open or write.
class PcapFileWriter {
public:
    /// Creates (or truncates) `path` and writes the file header with `snaplen` (64..262144).
    PcapFileWriter(std::string path, uint32_t snaplen);

    /// Writes a record header and returns where its `capturedLength` bytes (<= snaplen) go;
    /// the pointer is valid until the next call.
    uint8_t* beginRecord(int64_t tsNs, uint32_t capturedLength, uint32_t originalLength);
    /// Flushes and closes the file. Call it once at the end (the destructor flushes too, dropping errors).
    void finish();

    [[nodiscard]] uint32_t snaplen() const { return writer_.header().snapLength; }
    /// Bytes of the file so far, headers included.
    [[nodiscard]] uint64_t bytesWritten() const { return writer_.bytesWritten(); }

private:
    std::string path_;
    PcapWriter writer_;
};

}  // namespace tcpscope::bench
