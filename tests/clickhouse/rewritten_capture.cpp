#include "clickhouse/rewritten_capture.hpp"

#include <fmt/format.h>

#include <initializer_list>
#include <stdexcept>
#include <vector>

#include "capture/capture_reader.hpp"
#include "capture/pcap_writer.hpp"

namespace tcpscope::test {

namespace {

constexpr size_t kEthernetBytes = 14;
constexpr uint16_t kEtherTypeIpv4 = 0x0800;
constexpr uint8_t kProtocolTcp = 6;

uint16_t load16(const uint8_t* at) {
    return static_cast<uint16_t>((at[0] << 8) | at[1]);
}
void store16(uint8_t* at, uint16_t value) {
    at[0] = static_cast<uint8_t>(value >> 8);
    at[1] = static_cast<uint8_t>(value);
}

// RFC 1624: the one's complement checksum at `checksum` after a 16-bit word it covers went from
// `before` to `after` (valid even when the packet was cut by the snapshot length).
void adjustChecksum(uint8_t* checksum, uint16_t before, uint16_t after) {
    uint32_t sum = static_cast<uint16_t>(~load16(checksum)) + static_cast<uint16_t>(~before) + uint32_t{after};
    sum = (sum & 0xffff) + (sum >> 16);
    sum = (sum & 0xffff) + (sum >> 16);
    store16(checksum, static_cast<uint16_t>(~sum));
}

void replaceWord(uint8_t* word, uint16_t value, std::initializer_list<uint8_t*> checksums) {
    for (uint8_t* checksum : checksums) {
        adjustChecksum(checksum, load16(word), value);
    }
    store16(word, value);
}

// An IPv4 address is in the IP header's checksum and, through the pseudo header, in TCP's.
void replaceAddress(uint8_t* address, const std::array<uint8_t, 4>& value, uint8_t* ipChecksum, uint8_t* tcpChecksum) {
    for (size_t i = 0; i < 4; i += 2) {
        replaceWord(address + i, static_cast<uint16_t>((value[i] << 8) | value[i + 1]), {ipChecksum, tcpChecksum});
    }
}

}  // namespace

void writeRewrittenCapture(const std::string& from, const std::filesystem::path& to, const CaptureRewrite& rewrite) {
    const auto reader = CaptureReader::open(from);
    PcapWriter writer(to.string(), PcapFileHeader{linktype::kEthernet, 262144, false, false});
    RawPacket packet;
    std::vector<uint8_t> frame;
    while (reader->next(packet)) {
        frame.assign(packet.data, packet.data + packet.capturedLength);
        uint8_t* ip = frame.data() + kEthernetBytes;
        if (packet.linkType != linktype::kEthernet || frame.size() < kEthernetBytes + 20 ||
            load16(frame.data() + 12) != kEtherTypeIpv4 || ip[9] != kProtocolTcp) {
            throw std::runtime_error(
                fmt::format("{}: frame at offset {} is not Ethernet, IPv4 and TCP", from, packet.recordOffset));
        }
        const size_t ipHeaderBytes = size_t{ip[0] & 0x0fu} * 4;
        uint8_t* tcp = ip + ipHeaderBytes;
        if (frame.size() < kEthernetBytes + ipHeaderBytes + 18) {
            throw std::runtime_error(
                fmt::format("{}: frame at offset {} is cut before the TCP checksum", from, packet.recordOffset));
        }
        uint8_t* ipChecksum = ip + 10;
        uint8_t* tcpChecksum = tcp + 16;
        const bool towardsServer = load16(tcp + 2) == rewrite.serverPort;
        if (!towardsServer && load16(tcp) != rewrite.serverPort) {
            throw std::runtime_error(fmt::format("{}: frame at offset {} is not to or from port {}", from,
                                                 packet.recordOffset, rewrite.serverPort));
        }
        replaceAddress(ip + 12, towardsServer ? rewrite.clientAddress : rewrite.serverAddress, ipChecksum, tcpChecksum);
        replaceAddress(ip + 16, towardsServer ? rewrite.serverAddress : rewrite.clientAddress, ipChecksum, tcpChecksum);
        uint8_t* clientPort = tcp + (towardsServer ? 0 : 2);
        replaceWord(clientPort, static_cast<uint16_t>(load16(clientPort) + rewrite.clientPortOffset), {tcpChecksum});
        replaceWord(tcp + (towardsServer ? 2 : 0), rewrite.newServerPort, {tcpChecksum});
        writer.writeRecord(packet.tsNs + rewrite.shiftNs, frame, packet.originalLength);
    }
    if (const InputProblem* problem = reader->error()) {
        throw std::runtime_error(problem->describe());
    }
    writer.finish();
}

}  // namespace tcpscope::test
