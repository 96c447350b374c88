#include "bench/pcap_file_writer.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "bench/generator_error.hpp"

namespace tcpscope::bench {

namespace {

// Large enough that write() calls cost nothing next to filling the buffer.
constexpr size_t kBufferBytes = size_t{8} << 20;
constexpr uint32_t kMinSnaplen = 64;
constexpr uint32_t kMaxSnaplen = 262144;
constexpr uint32_t kLinkTypeEthernet = 1;

PcapFileHeader generatorHeader(const std::string& path, uint32_t snaplen) {
    if (snaplen < kMinSnaplen || snaplen > kMaxSnaplen) {
        throw GeneratorError(
            fmt::format("{}: offset 0: snapshot length {} is outside {}..{}", path, snaplen, kMinSnaplen, kMaxSnaplen));
    }
    return PcapFileHeader{kLinkTypeEthernet, snaplen, true, false};
}

}  // namespace

PcapFileWriter::PcapFileWriter(std::string path, uint32_t snaplen) try
    : path_(std::move(path)), writer_(path_, generatorHeader(path_, snaplen), kBufferBytes) {
} catch (const CaptureWriteError& error) {
    throw GeneratorError(error.what());
}

uint8_t* PcapFileWriter::beginRecord(int64_t tsNs, uint32_t capturedLength, uint32_t originalLength) {
    try {
        return writer_.beginRecord(tsNs, capturedLength, originalLength);
    } catch (const CaptureWriteError& error) {
        throw GeneratorError(error.what());
    } catch (const std::invalid_argument& error) {
        throw GeneratorError(fmt::format("{}: offset {}: {}", path_, writer_.bytesWritten(), error.what()));
    }
}

void PcapFileWriter::finish() {
    try {
        writer_.finish();
    } catch (const CaptureWriteError& error) {
        throw GeneratorError(error.what());
    }
}

}  // namespace tcpscope::bench
