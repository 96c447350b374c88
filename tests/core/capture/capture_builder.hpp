#pragma once
// Builds capture files byte by byte for the reader tests: pcap and pcapng in either byte order,
// gzip and zstd compression, and a few frames to put in them.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "capture/capture_reader.hpp"

namespace tcpscope::testing {

using Bytes = std::vector<uint8_t>;

/// Appends integers in a chosen byte order.
class ByteWriter {
public:
    explicit ByteWriter(bool bigEndian) : bigEndian_(bigEndian) {}
    void u8(uint8_t value) { bytes_.push_back(value); }
    void u16(uint16_t value);
    void u32(uint32_t value);
    void u64(uint64_t value);
    void append(const Bytes& bytes) { bytes_.insert(bytes_.end(), bytes.begin(), bytes.end()); }
    void append(const std::string& text) { bytes_.insert(bytes_.end(), text.begin(), text.end()); }
    void pad4() {
        while (bytes_.size() % 4 != 0) {
            bytes_.push_back(0);
        }
    }
    [[nodiscard]] const Bytes& bytes() const { return bytes_; }

private:
    bool bigEndian_;
    Bytes bytes_;
};

/// The file header fields of a pcap file.
struct PcapHeader {
    bool nanoseconds = false;
    bool bigEndian = false;
    uint32_t linkType = 1;
    uint32_t snapLength = 262144;
    uint16_t versionMajor = 2;
    uint16_t versionMinor = 4;
};

/// A pcap file built record by record.
class PcapBuilder {
public:
    explicit PcapBuilder(PcapHeader header = {});
    /// A record holding `data`; `originalLength` 0 means data.size().
    PcapBuilder& record(uint32_t seconds, uint32_t fraction, const Bytes& data, uint32_t originalLength = 0);
    /// A record header alone, with any lengths (for corrupt files).
    PcapBuilder& recordHeader(uint32_t seconds, uint32_t fraction, uint32_t capturedLength, uint32_t originalLength);
    PcapBuilder& raw(const Bytes& bytes);
    [[nodiscard]] const Bytes& bytes() const { return writer_.bytes(); }

private:
    ByteWriter writer_;
};

/// One option of a pcapng block: its code and value (the builder pads it).
struct PcapngTestOption {
    uint16_t code = 0;
    Bytes value;

    /// An opt_comment.
    static PcapngTestOption comment(const std::string& text) { return {1, Bytes(text.begin(), text.end())}; }
};

/// A pcapng file built block by block. The byte order follows the last section header.
class PcapngBuilder {
public:
    explicit PcapngBuilder(bool bigEndian = false) : bigEndian_(bigEndian) {}
    PcapngBuilder& sectionHeader(std::optional<bool> bigEndian = {}, const std::string& comment = {},
                                 uint16_t versionMajor = 1);
    PcapngBuilder& interfaceDescription(uint16_t linkType, uint32_t snapLength = 0, std::optional<uint8_t> tsresol = {},
                                        std::optional<int64_t> tsoffset = {});
    PcapngBuilder& enhancedPacket(uint32_t interfaceId, uint64_t timestamp, const Bytes& data,
                                  uint32_t originalLength = 0, const std::string& comment = {});
    /// An enhanced packet block with any options (each in the section's byte order as given: use
    /// u32Option for numbers).
    PcapngBuilder& enhancedPacket(uint32_t interfaceId, uint64_t timestamp, const Bytes& data,
                                  const std::vector<PcapngTestOption>& options);
    /// A 32-bit option value in the current byte order (epb_flags, a process block index).
    [[nodiscard]] PcapngTestOption u32Option(uint16_t code, uint32_t value) const;
    /// Apple's process information block (0x80000001): the pid, then a name and a 16-byte UUID if given.
    PcapngBuilder& processInformation(uint32_t pid, const std::string& name = {}, const Bytes& uuid = {});
    PcapngBuilder& simplePacket(const Bytes& data, uint32_t originalLength = 0);
    PcapngBuilder& obsoletePacket(uint16_t interfaceId, uint64_t timestamp, const Bytes& data,
                                  uint32_t originalLength = 0, const std::string& comment = {});
    /// Any block: type, body (padded to 4), both length fields.
    PcapngBuilder& block(uint32_t type, const Bytes& body);
    PcapngBuilder& raw(const Bytes& bytes);
    [[nodiscard]] const Bytes& bytes() const { return bytes_; }

private:
    Bytes bytes_;
    bool bigEndian_;
};

/// `bytes` gzip-compressed, split into `members` concatenated gzip members.
Bytes gzipCompress(const Bytes& bytes, int members = 1);
/// `bytes` zstd-compressed with checksums (as the zstd command writes), split into `frames` frames.
Bytes zstdCompress(const Bytes& bytes, int frames = 1);

/// Writes `bytes` to a fresh file in a temporary directory of this test run and returns its path.
std::filesystem::path writeTempFile(const std::string& name, const Bytes& bytes);

/// An IPv4 header and a 20-byte TCP header from port `sourcePort` to `destinationPort`, plus `payload` bytes.
Bytes ipv4Tcp(uint16_t sourcePort, uint16_t destinationPort, size_t payload = 0);
/// An IPv4 header and an 8-byte UDP header.
Bytes ipv4Udp(uint16_t sourcePort, uint16_t destinationPort);
/// `ip` in an Ethernet II frame.
Bytes ethernetFrame(const Bytes& ip);
/// `ip` behind a Linux cooked capture v2 header.
Bytes linuxSll2Frame(const Bytes& ip);
/// Frame `index` of a test series: Ethernet, TCP, distinct ports and payload sizes.
Bytes sampleFrame(int index);

/// A packet copied out of the reader, to compare after the reader moved on.
struct PacketCopy {
    int64_t tsNs = 0;
    uint32_t capturedLength = 0;
    uint32_t originalLength = 0;
    uint32_t linkType = 0;
    uint32_t interfaceId = 0;
    uint64_t recordOffset = 0;
    Bytes data;
    std::string comment;
    std::optional<PacketProcess> process;
    PacketDirection direction = PacketDirection::Unknown;
    bool operator==(const PacketCopy&) const = default;
};

/// Every packet left in `reader`.
std::vector<PacketCopy> readAll(CaptureReader& reader);
/// Every packet of a capture in memory.
std::vector<PacketCopy> readAllFromMemory(const Bytes& bytes);

}  // namespace tcpscope::testing
