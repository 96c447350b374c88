#include "core/capture/capture_builder.hpp"

#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include "capture/pcap_writer.hpp"

namespace tcpscope::testing {

void ByteWriter::u16(uint16_t value) {
    for (int i = 0; i < 2; ++i) {
        const int shift = bigEndian_ ? 8 * (1 - i) : 8 * i;
        bytes_.push_back(static_cast<uint8_t>(value >> shift));
    }
}

void ByteWriter::u32(uint32_t value) {
    for (int i = 0; i < 4; ++i) {
        const int shift = bigEndian_ ? 8 * (3 - i) : 8 * i;
        bytes_.push_back(static_cast<uint8_t>(value >> shift));
    }
}

void ByteWriter::u64(uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        const int shift = bigEndian_ ? 8 * (7 - i) : 8 * i;
        bytes_.push_back(static_cast<uint8_t>(value >> shift));
    }
}

PcapBuilder::PcapBuilder(PcapHeader header) : writer_(header.bigEndian) {
    // The core's writer encodes the header; only the version is ours to vary, for the reader's tests.
    Bytes fileHeader(kPcapFileHeaderBytes);
    encodePcapFileHeader(PcapFileHeader{header.linkType, header.snapLength, header.nanoseconds, header.bigEndian},
                         fileHeader.data());
    ByteWriter version(header.bigEndian);
    version.u16(header.versionMajor);
    version.u16(header.versionMinor);
    std::copy(version.bytes().begin(), version.bytes().end(), fileHeader.begin() + 4);
    writer_.append(fileHeader);
}

PcapBuilder& PcapBuilder::recordHeader(uint32_t seconds, uint32_t fraction, uint32_t capturedLength,
                                       uint32_t originalLength) {
    writer_.u32(seconds);
    writer_.u32(fraction);
    writer_.u32(capturedLength);
    writer_.u32(originalLength);
    return *this;
}

PcapBuilder& PcapBuilder::record(uint32_t seconds, uint32_t fraction, const Bytes& data, uint32_t originalLength) {
    const auto length = static_cast<uint32_t>(data.size());
    recordHeader(seconds, fraction, length, originalLength == 0 ? length : originalLength);
    writer_.append(data);
    return *this;
}

PcapBuilder& PcapBuilder::raw(const Bytes& bytes) {
    writer_.append(bytes);
    return *this;
}

namespace {

void option(ByteWriter& writer, uint16_t code, const Bytes& value) {
    writer.u16(code);
    writer.u16(static_cast<uint16_t>(value.size()));
    writer.append(value);
    writer.pad4();
}

void commentOption(ByteWriter& writer, const std::string& comment) {
    if (!comment.empty()) {
        option(writer, 1, Bytes(comment.begin(), comment.end()));
    }
}

void endOfOptions(ByteWriter& writer) { writer.u32(0); }

}  // namespace

PcapngBuilder& PcapngBuilder::enhancedPacket(uint32_t interfaceId, uint64_t timestamp, const Bytes& data,
                                             const std::vector<PcapngTestOption>& options) {
    ByteWriter body(bigEndian_);
    body.u32(interfaceId);
    body.u32(static_cast<uint32_t>(timestamp >> 32));
    body.u32(static_cast<uint32_t>(timestamp));
    body.u32(static_cast<uint32_t>(data.size()));
    body.u32(static_cast<uint32_t>(data.size()));
    body.append(data);
    body.pad4();
    for (const PcapngTestOption& each : options) {
        option(body, each.code, each.value);
    }
    if (!options.empty()) {
        endOfOptions(body);
    }
    return block(6, body.bytes());
}

PcapngTestOption PcapngBuilder::u32Option(uint16_t code, uint32_t value) const {
    ByteWriter writer(bigEndian_);
    writer.u32(value);
    return {code, writer.bytes()};
}

PcapngBuilder& PcapngBuilder::processInformation(uint32_t pid, const std::string& name, const Bytes& uuid) {
    ByteWriter body(bigEndian_);
    body.u32(pid);
    if (!name.empty()) {
        option(body, 2, Bytes(name.begin(), name.end()));
    }
    if (!uuid.empty()) {
        option(body, 4, uuid);
    }
    if (!name.empty() || !uuid.empty()) {
        endOfOptions(body);
    }
    return block(0x80000001, body.bytes());
}

PcapngBuilder& PcapngBuilder::block(uint32_t type, const Bytes& body) {
    ByteWriter writer(bigEndian_);
    const auto length = static_cast<uint32_t>(12 + ((body.size() + 3) & ~size_t{3}));
    writer.u32(type);
    writer.u32(length);
    writer.append(body);
    writer.pad4();
    writer.u32(length);
    bytes_.insert(bytes_.end(), writer.bytes().begin(), writer.bytes().end());
    return *this;
}

PcapngBuilder& PcapngBuilder::raw(const Bytes& bytes) {
    bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
    return *this;
}

PcapngBuilder& PcapngBuilder::sectionHeader(std::optional<bool> bigEndian, const std::string& comment,
                                            uint16_t versionMajor) {
    if (bigEndian) {
        bigEndian_ = *bigEndian;
    }
    ByteWriter body(bigEndian_);
    body.u32(0x1a2b3c4d);
    body.u16(versionMajor);
    body.u16(0);
    body.u64(~uint64_t{0});  // section length unknown
    if (!comment.empty()) {
        commentOption(body, comment);
        endOfOptions(body);
    }
    return block(0x0a0d0d0a, body.bytes());
}

PcapngBuilder& PcapngBuilder::interfaceDescription(uint16_t linkType, uint32_t snapLength,
                                                   std::optional<uint8_t> tsresol, std::optional<int64_t> tsoffset) {
    ByteWriter body(bigEndian_);
    body.u16(linkType);
    body.u16(0);
    body.u32(snapLength);
    if (tsresol) {
        option(body, 9, Bytes{*tsresol});
    }
    if (tsoffset) {
        ByteWriter value(bigEndian_);
        value.u64(static_cast<uint64_t>(*tsoffset));
        option(body, 14, value.bytes());
    }
    if (tsresol || tsoffset) {
        endOfOptions(body);
    }
    return block(1, body.bytes());
}

PcapngBuilder& PcapngBuilder::enhancedPacket(uint32_t interfaceId, uint64_t timestamp, const Bytes& data,
                                             uint32_t originalLength, const std::string& comment) {
    ByteWriter body(bigEndian_);
    body.u32(interfaceId);
    body.u32(static_cast<uint32_t>(timestamp >> 32));
    body.u32(static_cast<uint32_t>(timestamp));
    body.u32(static_cast<uint32_t>(data.size()));
    body.u32(originalLength == 0 ? static_cast<uint32_t>(data.size()) : originalLength);
    body.append(data);
    body.pad4();
    if (!comment.empty()) {
        commentOption(body, comment);
        endOfOptions(body);
    }
    return block(6, body.bytes());
}

PcapngBuilder& PcapngBuilder::simplePacket(const Bytes& data, uint32_t originalLength) {
    ByteWriter body(bigEndian_);
    body.u32(originalLength == 0 ? static_cast<uint32_t>(data.size()) : originalLength);
    body.append(data);
    return block(3, body.bytes());
}

PcapngBuilder& PcapngBuilder::obsoletePacket(uint16_t interfaceId, uint64_t timestamp, const Bytes& data,
                                             uint32_t originalLength, const std::string& comment) {
    ByteWriter body(bigEndian_);
    body.u16(interfaceId);
    body.u16(0);  // drops count
    body.u32(static_cast<uint32_t>(timestamp >> 32));
    body.u32(static_cast<uint32_t>(timestamp));
    body.u32(static_cast<uint32_t>(data.size()));
    body.u32(originalLength == 0 ? static_cast<uint32_t>(data.size()) : originalLength);
    body.append(data);
    body.pad4();
    if (!comment.empty()) {
        commentOption(body, comment);
        endOfOptions(body);
    }
    return block(2, body.bytes());
}

Bytes gzipCompress(const Bytes& bytes, int members) {
    Bytes out;
    const size_t step = (bytes.size() + static_cast<size_t>(members) - 1) / static_cast<size_t>(members);
    for (size_t start = 0; start < bytes.size() || (start == 0 && bytes.empty()); start += step) {
        const size_t count = std::min(step, bytes.size() - start);
        z_stream stream{};
        if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            throw std::runtime_error("deflateInit2 failed");
        }
        Bytes member(deflateBound(&stream, count) + 64);
        stream.next_in = const_cast<uint8_t*>(bytes.data() + start);
        stream.avail_in = static_cast<uInt>(count);
        stream.next_out = member.data();
        stream.avail_out = static_cast<uInt>(member.size());
        if (deflate(&stream, Z_FINISH) != Z_STREAM_END) {
            throw std::runtime_error("deflate failed");
        }
        member.resize(stream.total_out);
        deflateEnd(&stream);
        out.insert(out.end(), member.begin(), member.end());
        if (bytes.empty()) {
            break;
        }
    }
    return out;
}

Bytes zstdCompress(const Bytes& bytes, int frames) {
    Bytes out;
    const size_t step = (bytes.size() + static_cast<size_t>(frames) - 1) / static_cast<size_t>(frames);
    for (size_t start = 0; start < bytes.size(); start += step) {
        const size_t count = std::min(step, bytes.size() - start);
        Bytes frame(ZSTD_compressBound(count));
        ZSTD_CCtx* context = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);  // as the zstd command does
        const size_t written = ZSTD_compress2(context, frame.data(), frame.size(), bytes.data() + start, count);
        ZSTD_freeCCtx(context);
        if (ZSTD_isError(written) != 0) {
            throw std::runtime_error(ZSTD_getErrorName(written));
        }
        out.insert(out.end(), frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(written));
    }
    return out;
}

namespace {

/// A directory for this run's files, removed when the test program ends.
class TempDirectory {
public:
    TempDirectory()
        : path_(std::filesystem::temp_directory_path() / ("tcpscope-capture-tests-" + std::to_string(::getpid()))) {
        std::filesystem::create_directories(path_);
    }
    ~TempDirectory() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TempDirectory(const TempDirectory&) = delete;
    TempDirectory& operator=(const TempDirectory&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace

std::filesystem::path writeTempFile(const std::string& name, const Bytes& bytes) {
    static TempDirectory directory;
    std::filesystem::path path = directory.path() / name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
        throw std::runtime_error("cannot write " + path.string());
    }
    return path;
}

Bytes ipv4Tcp(uint16_t sourcePort, uint16_t destinationPort, size_t payload) {
    ByteWriter writer(true);
    writer.u8(0x45);
    writer.u8(0);
    writer.u16(static_cast<uint16_t>(40 + payload));
    writer.u16(1);       // identification
    writer.u16(0x4000);  // don't fragment
    writer.u8(64);
    writer.u8(6);  // TCP
    writer.u16(0);
    writer.u32(0x0a000001);
    writer.u32(0x0a000002);
    writer.u16(sourcePort);
    writer.u16(destinationPort);
    writer.u32(1000);  // seq
    writer.u32(2000);  // ack
    writer.u8(0x50);
    writer.u8(0x18);  // PSH ACK
    writer.u16(65535);
    writer.u16(0);
    writer.u16(0);
    for (size_t i = 0; i < payload; ++i) {
        writer.u8(static_cast<uint8_t>(i));
    }
    return writer.bytes();
}

Bytes ipv4Udp(uint16_t sourcePort, uint16_t destinationPort) {
    ByteWriter writer(true);
    writer.u8(0x45);
    writer.u8(0);
    writer.u16(28);
    writer.u16(1);
    writer.u16(0);
    writer.u8(64);
    writer.u8(17);  // UDP
    writer.u16(0);
    writer.u32(0x0a000001);
    writer.u32(0x0a000002);
    writer.u16(sourcePort);
    writer.u16(destinationPort);
    writer.u16(8);
    writer.u16(0);
    return writer.bytes();
}

Bytes ethernetFrame(const Bytes& ip) {
    ByteWriter writer(true);
    for (int i = 0; i < 12; ++i) {
        writer.u8(static_cast<uint8_t>(i + 1));  // destination and source MAC
    }
    writer.u16(0x0800);
    writer.append(ip);
    return writer.bytes();
}

Bytes linuxSll2Frame(const Bytes& ip) {
    ByteWriter writer(true);
    writer.u16(0x0800);  // protocol
    writer.u16(0);       // reserved
    writer.u32(2);       // interface index
    writer.u16(1);       // ARPHRD_ETHER
    writer.u8(0);        // to us
    writer.u8(6);        // address length
    for (int i = 0; i < 8; ++i) {
        writer.u8(static_cast<uint8_t>(i < 6 ? i + 1 : 0));
    }
    writer.append(ip);
    return writer.bytes();
}

Bytes sampleFrame(int index) {
    return ethernetFrame(ipv4Tcp(static_cast<uint16_t>(40000 + index), 80, static_cast<size_t>(index % 7) * 13));
}

std::vector<PacketCopy> readAll(CaptureReader& reader) {
    std::vector<PacketCopy> packets;
    RawPacket packet;
    while (reader.next(packet)) {
        PacketCopy copy;
        copy.tsNs = packet.tsNs;
        copy.capturedLength = packet.capturedLength;
        copy.originalLength = packet.originalLength;
        copy.linkType = packet.linkType;
        copy.interfaceId = packet.interfaceId;
        copy.recordOffset = packet.recordOffset;
        copy.data.assign(packet.data, packet.data + packet.capturedLength);
        copy.comment = std::string(packet.comment);
        if (packet.process != nullptr) {
            copy.process = *packet.process;
        }
        copy.direction = packet.direction;
        packets.push_back(std::move(copy));
    }
    return packets;
}

std::vector<PacketCopy> readAllFromMemory(const Bytes& bytes) {
    auto reader = CaptureReader::openMemory("memory", bytes);
    return readAll(*reader);
}

}  // namespace tcpscope::testing
