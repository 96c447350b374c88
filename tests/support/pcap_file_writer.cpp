// The pcap-file half of the packet builder: classic pcap bytes and files, and temporary file names.
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <stdexcept>

#include "support/packet_builder.hpp"

namespace tcpscope::test {
namespace {

/// Appends pcap header fields in the byte order the file claims.
class FieldWriter {
public:
    FieldWriter(std::vector<uint8_t>& out, bool bigEndian) : out_(out), bigEndian_(bigEndian) {}

    void put16(uint16_t value) {
        const auto high = static_cast<uint8_t>(value >> 8);
        const auto low = static_cast<uint8_t>(value);
        out_.push_back(bigEndian_ ? high : low);
        out_.push_back(bigEndian_ ? low : high);
    }

    void put32(uint32_t value) {
        const auto high = static_cast<uint16_t>(value >> 16);
        const auto low = static_cast<uint16_t>(value);
        put16(bigEndian_ ? high : low);
        put16(bigEndian_ ? low : high);
    }

private:
    std::vector<uint8_t>& out_;
    bool bigEndian_;
};

}  // namespace

std::vector<uint8_t> pcapFileBytes(const std::vector<BuiltPacket>& packets, const PcapFileOptions& options) {
    std::vector<uint8_t> out;
    FieldWriter writer(out, options.bigEndian);
    auto put16 = [&writer](uint16_t value) { writer.put16(value); };
    auto put32 = [&writer](uint32_t value) { writer.put32(value); };
    put32(options.nanosecond ? 0xA1B23C4D : 0xA1B2C3D4);
    put16(2);
    put16(4);
    put32(0);  // thiszone
    put32(0);  // sigfigs
    put32(options.snaplen);
    put32(options.linkType);
    const int64_t unitsPerSecond = options.nanosecond ? 1'000'000'000 : 1'000'000;
    for (const BuiltPacket& packet : packets) {
        const int64_t units = options.nanosecond ? packet.tsNs : packet.tsNs / 1000;
        put32(static_cast<uint32_t>(units / unitsPerSecond));
        put32(static_cast<uint32_t>(units % unitsPerSecond));
        put32(static_cast<uint32_t>(packet.bytes.size()));
        put32(packet.originalLength != 0 ? packet.originalLength : static_cast<uint32_t>(packet.bytes.size()));
        out.insert(out.end(), packet.bytes.begin(), packet.bytes.end());
    }
    return out;
}

void writePcapFile(const std::filesystem::path& path, const std::vector<BuiltPacket>& packets,
                   const PcapFileOptions& options) {
    const std::vector<uint8_t> bytes = pcapFileBytes(packets, options);
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    file.close();
    if (!file) {
        throw std::runtime_error("packet_builder: cannot write " + path.string());
    }
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
