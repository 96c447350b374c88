// Fuzz target for the capture readers: arbitrary bytes go through format and compression
// detection (gzip, zstd), the pcap and pcapng parsers and the BPF filter. Every byte of every
// delivered packet and comment is read, so a reader that hands out a bad pointer or length is
// caught by AddressSanitizer.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "capture/bpf_filter.hpp"
#include "capture/capture_reader.hpp"

// Provided by libFuzzer; weak so that the replay program, which never mutates, links without it.
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t maxSize) __attribute__((weak));

namespace {

uint32_t load32(const uint8_t* bytes, bool swapped) {
    uint32_t value;
    std::memcpy(&value, bytes, sizeof value);
    return swapped ? __builtin_bswap32(value) : value;
}

/// Copies each pcapng block's leading length into its trailing length field. A mutation that
/// resizes a block almost never fixes both; without this, nearly every such input dies at the
/// length check and the fuzzer never reaches what lies inside the blocks.
void repairPcapngTrailers(uint8_t* data, size_t size) {
    constexpr uint32_t kSectionHeader = 0x0a0d0d0a;
    bool swapped = false;
    size_t offset = 0;
    while (offset + 12 <= size) {
        if (load32(data + offset, false) == kSectionHeader) {
            swapped = load32(data + offset + 8, false) != 0x1a2b3c4d;
        }
        const uint32_t length = load32(data + offset + 4, swapped);
        if (length < 12 || length % 4 != 0 || length > size - offset) {
            return;
        }
        const uint32_t trailer = swapped ? __builtin_bswap32(length) : length;
        std::memcpy(data + offset + length - 4, &trailer, sizeof trailer);
        offset += length;
    }
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned int seed) {
    size = LLVMFuzzerMutate(data, size, maxSize);
    // Half the time only, so that inconsistent trailers stay covered too.
    if (seed % 2 == 0 && size >= 4 && load32(data, false) == 0x0a0d0d0a) {
        repairPcapngTrailers(data, size);
    }
    return size;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // One filter for the whole run: it compiles once per link type the inputs bring.
    static tcpscope::BpfFilter filter("tcp");
    try {
        auto reader = tcpscope::CaptureReader::openMemory("fuzz-input", std::vector<uint8_t>(data, data + size));
        tcpscope::RawPacket packet;
        uint64_t checksum = 0;
        while (reader->next(packet)) {
            for (uint32_t i = 0; i < packet.capturedLength; ++i) {
                checksum += packet.data[i];
            }
            for (const char c : packet.comment) {
                checksum += static_cast<uint8_t>(c);
            }
            checksum += filter.matches(packet) ? 1 : 0;
        }
        for (const auto& warning : reader->warnings()) {
            checksum += warning.describe().size();
        }
        if (const tcpscope::InputProblem* error = reader->error()) {
            checksum += error->describe().size();
        }
        for (const auto& comment : reader->sectionComments()) {
            checksum += comment.size();
        }
        checksum += reader->bytesConsumed() + reader->fileSize() + reader->format().container.size();
        // Keeps the reads above from being optimised away.
        volatile uint64_t sink = checksum;
        (void)sink;
    } catch (const tcpscope::CaptureError& error) {
        volatile size_t sink = error.problem().describe().size();
        (void)sink;
    }
    return 0;
}
