// The pcap-file half of the packet builder: classic pcap bytes and files (written by the core's
// capture/pcap_writer), and temporary file names.
#include <unistd.h>

#include <atomic>

#include "capture/pcap_writer.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope::test {
namespace {

PcapFileHeader fileHeader(const PcapFileOptions& options) {
    return PcapFileHeader{options.linkType, options.snaplen, options.nanosecond, options.bigEndian};
}

void writeRecords(PcapWriter& writer, const std::vector<BuiltPacket>& packets) {
    for (const BuiltPacket& packet : packets) {
        const auto capturedLength = static_cast<uint32_t>(packet.bytes.size());
        writer.writeRecord(packet.tsNs, packet.bytes, packet.originalLength != 0 ? packet.originalLength : capturedLength);
    }
}

}  // namespace

std::vector<uint8_t> pcapFileBytes(const std::vector<BuiltPacket>& packets, const PcapFileOptions& options) {
    PcapWriter writer(fileHeader(options));
    writeRecords(writer, packets);
    return {writer.bytes().begin(), writer.bytes().end()};
}

void writePcapFile(const std::filesystem::path& path, const std::vector<BuiltPacket>& packets,
                   const PcapFileOptions& options) {
    PcapWriter writer(path.string(), fileHeader(options));
    writeRecords(writer, packets);
    writer.finish();
}

std::filesystem::path uniqueTempPath(std::string_view stem, std::string_view extension) {
    static std::atomic<uint64_t> counter{0};
    std::string name = "tcpscope-test-";
    name += stem;
    name += '-';
    name += std::to_string(::getpid());
    name += '-';
    name += std::to_string(counter.fetch_add(1));
    name += extension;
    return std::filesystem::temp_directory_path() / name;
}

}  // namespace tcpscope::test
