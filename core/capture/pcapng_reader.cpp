#include "capture/pcapng_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "capture/file_byte_order.hpp"
#include "capture/pcapng_options.hpp"
#include "capture/ptcpdump_comment.hpp"
#include "text/valid_utf8.hpp"

namespace tcpscope {

namespace {

namespace blocktype {
constexpr uint32_t kSectionHeader = 0x0a0d0d0a;
constexpr uint32_t kInterfaceDescription = 0x00000001;
constexpr uint32_t kObsoletePacket = 0x00000002;
constexpr uint32_t kSimplePacket = 0x00000003;
constexpr uint32_t kEnhancedPacket = 0x00000006;
constexpr uint32_t kProcessInformation = 0x80000001;  // Apple's (Wireshark: BLOCK_TYPE_LEGACY_DPIB)
constexpr uint32_t kCustomCopied = 0x00000BAD;
constexpr uint32_t kCustomNotCopied = 0x40000BAD;
}  // namespace blocktype

constexpr uint32_t kByteOrderMagic = 0x1a2b3c4d;
constexpr size_t kBlockHeaderBytes = 8;
constexpr size_t kBlockOverheadBytes = 12;  // type, length, trailing length
constexpr size_t kSectionHeaderFixedBytes = 16;
constexpr size_t kInterfaceFixedBytes = 8;
constexpr size_t kPacketFixedBytes = 20;  // enhanced and obsolete packet blocks alike
constexpr size_t kSimplePacketFixedBytes = 4;
constexpr size_t kProcessFixedBytes = 4;  // the process id
constexpr size_t kCustomFixedBytes = 4;   // the Private Enterprise Number
constexpr size_t kUuidBytes = 16;
// Limits on what a file can make us keep; each is far above anything a capture tool writes.
constexpr size_t kMaxInterfaces = 65536;
constexpr size_t kMaxSectionComments = 100;
constexpr size_t kMaxProcessBlocks = 65536;
constexpr size_t kMaxProcessComments = 16;  // per packet; ptcpdump writes up to 6
constexpr uint32_t kSupportedMajorVersion = 1;

size_t padded4(size_t length) { return (length + 3) & ~size_t{3}; }

std::string_view optionText(const PcapngOption& option) {
    std::string_view text(reinterpret_cast<const char*>(option.value), option.length);
    // Some writers count a terminating NUL in the option length.
    while (!text.empty() && text.back() == '\0') {
        text.remove_suffix(1);
    }
    return text;
}

}  // namespace

PcapngReader::PcapngReader(ByteSource source) : SourceBackedReader(std::move(source), "pcapng") {
    Block block;
    if (!readBlock(block)) {
        if (const InputProblem* problem = source_.error()) {
            throw CaptureError(*problem);
        }
        reject(0, "file ends inside the first section header block");
    }
    if (block.type != blocktype::kSectionHeader) {
        reject(0, fmt::format("not a pcapng file (first block type 0x{:08x})", block.type));
    }
    if (!startSection(block)) {
        throw CaptureError(*source_.error());
    }
    source_.consume(block.length);
}

void PcapngReader::warnOnce(bool& warned, uint64_t offset, std::string reason) {
    if (!warned) {
        warned = true;
        source_.warn(offset, std::move(reason) + " (reported once)");
    }
}

void PcapngReader::endOfFile(uint64_t blockOffset, uint32_t blockLength) {
    done_ = true;
    const size_t left = source_.available();
    if (left == 0 || source_.error() != nullptr) {
        return;
    }
    if (blockLength == 0) {
        endInsideRecord(blockOffset, left,
                        fmt::format("file ends {} into a block header; the partial block is ignored", bytesText(left)));
    } else {
        endInsideRecord(blockOffset, left,
                        fmt::format("file ends {} into a block of {}; the partial block is ignored", bytesText(left),
                                    bytesText(blockLength)));
    }
}

bool PcapngReader::readBlock(Block& block) {
    block.offset = source_.offset();
    const uint8_t* bytes = source_.ensure(kBlockHeaderBytes);
    if (bytes == nullptr) {
        endOfFile(block.offset, 0);
        return false;
    }
    block.type = byteorder::load32(bytes, swapped_);
    if (block.type == blocktype::kSectionHeader) {
        // A new section may change the byte order, and its length is written in the new order.
        bytes = source_.ensure(kBlockOverheadBytes);
        if (bytes == nullptr) {
            endOfFile(block.offset, 0);
            return false;
        }
        const uint32_t magic = byteorder::load32(bytes + kBlockHeaderBytes, false);
        if (magic != kByteOrderMagic && magic != __builtin_bswap32(kByteOrderMagic)) {
            source_.fail(block.offset + kBlockHeaderBytes,
                         fmt::format("section header block with an unknown byte-order magic 0x{:08x}",
                                     byteorder::loadBigEndian32(bytes + kBlockHeaderBytes)));
            return false;
        }
        swapped_ = magic != kByteOrderMagic;
    }
    block.length = byteorder::load32(bytes + 4, swapped_);
    if (block.length < kBlockOverheadBytes || block.length % 4 != 0 || block.length > kMaxBlockBytes) {
        source_.fail(block.offset, fmt::format("block of type 0x{:08x} has an invalid length of {} bytes (a block "
                                               "is a multiple of 4 bytes, from 12 bytes to {} bytes)",
                                               block.type, block.length, kMaxBlockBytes));
        return false;
    }
    bytes = source_.ensure(block.length);
    if (bytes == nullptr) {
        endOfFile(block.offset, block.length);
        return false;
    }
    const uint32_t trailingLength = byteorder::load32(bytes + block.length - 4, swapped_);
    if (trailingLength != block.length) {
        source_.fail(block.offset, fmt::format("block of type 0x{:08x} says it is {} bytes long at its start but {} "
                                               "at its end",
                                               block.type, block.length, trailingLength));
        return false;
    }
    block.body = bytes + kBlockHeaderBytes;
    block.bodyLength = block.length - kBlockOverheadBytes;
    return true;
}

bool PcapngReader::next(RawPacket& packet) {
    if (done_) {
        return false;
    }
    Block block;
    while (readBlock(block)) {
        bool produced = false;
        switch (block.type) {
        case blocktype::kSectionHeader:
            if (!startSection(block)) {
                done_ = true;
                return false;
            }
            break;
        case blocktype::kInterfaceDescription:
            if (!addInterface(block)) {
                done_ = true;
                return false;
            }
            break;
        case blocktype::kEnhancedPacket:
            produced = readEnhancedPacket(block, packet);
            break;
        case blocktype::kSimplePacket:
            produced = readSimplePacket(block, packet);
            break;
        case blocktype::kObsoletePacket:
            produced = readObsoletePacket(block, packet);
            break;
        case blocktype::kProcessInformation:
            addProcessBlock(block);
            break;
        case blocktype::kCustomCopied:
        case blocktype::kCustomNotCopied: passCustomBlock(block); break;
        default: break;  // name resolution, statistics, secrets and unknown blocks hold no packets
        }
        // The packet's bytes stay where they are until the next ensure(), i.e. the next call.
        source_.consume(block.length);
        if (produced) {
            return true;
        }
    }
    done_ = true;
    return false;
}

void PcapngReader::passCustomBlock(const Block& block) {
    if (!customBlocks_ || block.bodyLength < kCustomFixedBytes) {
        return;
    }
    customBlocks_(CustomBlock{
        block.type, byteorder::load32(block.body, swapped_),
        std::span<const uint8_t>(block.body + kCustomFixedBytes, block.bodyLength - kCustomFixedBytes), block.offset});
}

bool PcapngReader::startSection(const Block& block) {
    if (block.bodyLength < kSectionHeaderFixedBytes) {
        source_.fail(block.offset, fmt::format("section header block too short ({} bytes)", block.length));
        return false;
    }
    const uint16_t major = byteorder::load16(block.body + 4, swapped_);
    const uint16_t minor = byteorder::load16(block.body + 6, swapped_);
    if (major != kSupportedMajorVersion) {
        source_.fail(block.offset, fmt::format("unsupported pcapng version {}.{}", major, minor));
        return false;
    }
    interfaces_.clear();
    processBlocks_.clear();  // packets name the process blocks of their own section
    ++section_;
    PcapngOptionReader options(block.body + kSectionHeaderFixedBytes, block.bodyLength - kSectionHeaderFixedBytes,
                               swapped_);
    PcapngOption option;
    while (options.next(option)) {
        if (option.code == pcapngopt::kComment && sectionComments_.size() < kMaxSectionComments) {
            sectionComments_.push_back(validUtf8(optionText(option)));
        }
    }
    if (options.malformed()) {
        warnOnce(warnedMalformedOption_, block.offset, "option runs past the end of its block");
    }
    return true;
}

bool PcapngReader::addInterface(const Block& block) {
    if (block.bodyLength < kInterfaceFixedBytes) {
        // Skipping it would renumber the interfaces after it, so packets would get wrong link types.
        source_.fail(block.offset, fmt::format("interface description block too short ({} bytes)", block.length));
        return false;
    }
    if (interfaces_.size() >= kMaxInterfaces) {
        warnOnce(warnedTooManyInterfaces_, block.offset,
                 fmt::format("more than {} interfaces in one section; further ones are ignored", kMaxInterfaces));
        return true;
    }
    Interface interface;
    interface.linkType = byteorder::load16(block.body, swapped_);
    interface.snapLength = byteorder::load32(block.body + 4, swapped_);
    uint8_t tsresol = 6;
    int64_t offsetSeconds = 0;
    PcapngOptionReader options(block.body + kInterfaceFixedBytes, block.bodyLength - kInterfaceFixedBytes, swapped_);
    PcapngOption option;
    while (options.next(option)) {
        if (option.code == pcapngopt::kInterfaceTsresol && option.length >= 1) {
            tsresol = option.value[0];
        } else if (option.code == pcapngopt::kInterfaceTsoffset && option.length >= 8) {
            offsetSeconds = static_cast<int64_t>(byteorder::load64(option.value, swapped_));
        }
    }
    if (options.malformed()) {
        warnOnce(warnedMalformedOption_, block.offset, "option runs past the end of its block");
    }
    interface.scale = TimestampScale::fromTsresol(tsresol, offsetSeconds);
    interfaces_.push_back(interface);
    return true;
}

bool PcapngReader::readEnhancedPacket(const Block& block, RawPacket& packet) {
    if (block.bodyLength < kPacketFixedBytes) {
        source_.warn(block.offset, fmt::format("enhanced packet block too short ({} bytes); skipped", block.length));
        return false;
    }
    const uint8_t* body = block.body;
    const uint64_t timestamp =
        (uint64_t{byteorder::load32(body + 4, swapped_)} << 32) | byteorder::load32(body + 8, swapped_);
    return fillPacket(block, byteorder::load32(body, swapped_), timestamp, byteorder::load32(body + 12, swapped_),
                      byteorder::load32(body + 16, swapped_), packet);
}

bool PcapngReader::readObsoletePacket(const Block& block, RawPacket& packet) {
    if (block.bodyLength < kPacketFixedBytes) {
        source_.warn(block.offset, fmt::format("packet block too short ({} bytes); skipped", block.length));
        return false;
    }
    // Like an enhanced packet block, but a 16-bit interface id followed by a 16-bit drop count.
    const uint8_t* body = block.body;
    const uint64_t timestamp =
        (uint64_t{byteorder::load32(body + 4, swapped_)} << 32) | byteorder::load32(body + 8, swapped_);
    return fillPacket(block, byteorder::load16(body, swapped_), timestamp, byteorder::load32(body + 12, swapped_),
                      byteorder::load32(body + 16, swapped_), packet);
}

bool PcapngReader::fillPacket(const Block& block, uint32_t interfaceId, uint64_t timestamp, uint32_t capturedLength,
                              uint32_t originalLength, RawPacket& packet) {
    const size_t dataSpace = block.bodyLength - kPacketFixedBytes;
    if (capturedLength > dataSpace) {
        source_.warn(block.offset, fmt::format("packet claims {} captured bytes but its block holds only {}; "
                                               "skipped",
                                               capturedLength, dataSpace));
        return false;
    }
    if (interfaceId >= interfaces_.size()) {
        source_.warn(block.offset, fmt::format("packet of interface {}, but the section describes {} interfaces; "
                                               "skipped",
                                               interfaceId, interfaces_.size()));
        return false;
    }
    const Interface& interface = interfaces_[interfaceId];
    const uint8_t* data = block.body + kPacketFixedBytes;
    const size_t dataBytes = std::min(padded4(capturedLength), dataSpace);
    packet.tsNs = packetTimeNs(interface.scale.toEpochNs(timestamp), block.offset);
    packet.capturedLength = capturedLength;
    packet.originalLength = originalLength;
    packet.linkType = interface.linkType;
    packet.interfaceId = interfaceId;
    packet.recordOffset = block.offset;
    packet.data = data;
    readPacketOptions(block, data + dataBytes, dataSpace - dataBytes, packet);
    readPktapProcess(packet);
    return true;
}

bool PcapngReader::readSimplePacket(const Block& block, RawPacket& packet) {
    if (block.bodyLength < kSimplePacketFixedBytes) {
        source_.warn(block.offset, fmt::format("simple packet block too short ({} bytes); skipped", block.length));
        return false;
    }
    if (interfaces_.empty()) {
        source_.warn(block.offset, "simple packet block in a section that describes no interface; skipped");
        return false;
    }
    const Interface& interface = interfaces_.front();
    const uint32_t originalLength = byteorder::load32(block.body, swapped_);
    // The block has no captured length: the frame fills the block up to the padding, and no more
    // than the interface's snapshot length.
    size_t capturedLength = std::min<size_t>(originalLength, block.bodyLength - kSimplePacketFixedBytes);
    if (interface.snapLength != 0) {
        capturedLength = std::min<size_t>(capturedLength, interface.snapLength);
    }
    warnOnce(warnedSimplePacketTime_, block.offset, "simple packet blocks have no timestamp; their time is 0");
    packet.tsNs = 0;
    packet.capturedLength = static_cast<uint32_t>(capturedLength);
    packet.originalLength = originalLength;
    packet.linkType = interface.linkType;
    packet.interfaceId = 0;
    packet.recordOffset = block.offset;
    packet.data = block.body + kSimplePacketFixedBytes;
    packet.comment = {};
    packet.process = nullptr;
    packet.direction = PacketDirection::Unknown;
    readPktapProcess(packet);
    return true;
}

void PcapngReader::readPacketOptions(const Block& block, const uint8_t* options, size_t length,
                                     RawPacket& packet) {
    packet.comment = {};
    packet.process = nullptr;
    packet.direction = PacketDirection::Unknown;
    if (length == 0) {
        return;
    }
    processComments_.clear();
    std::optional<uint32_t> processIndex;
    std::optional<uint32_t> effectiveIndex;
    bool commentSeen = false;
    PcapngOptionReader reader(options, length, swapped_);
    PcapngOption option;
    while (reader.next(option)) {
        switch (option.code) {
        case pcapngopt::kComment: {
            const std::string_view text = optionText(option);
            if (!commentSeen) {  // the first one is the packet's comment
                commentSeen = true;
                if (isValidUtf8(text)) {
                    packet.comment = text;
                } else {
                    repairedComment_ = validUtf8(text);
                    packet.comment = repairedComment_;
                }
            }
            if (processComments_.size() < kMaxProcessComments && looksLikePtcpdumpComment(text)) {
                processComments_.push_back(text);
            }
            break;
        }
        case pcapngopt::kPacketFlags:
            if (option.length == 4) {
                const uint32_t direction = byteorder::load32(option.value, swapped_) & 0x3;
                packet.direction = direction == 1   ? PacketDirection::Inbound
                                   : direction == 2 ? PacketDirection::Outbound
                                                    : PacketDirection::Unknown;
            }
            break;
        case pcapngopt::kPacketProcessIndex:
        case pcapngopt::kPacketEffectiveIndex:
            if (option.length != 4) {
                warnOnce(warnedProcessIndexLength_, block.offset,
                         fmt::format("process information block index option of {}, not 4; the packet's process is "
                                     "unknown",
                                     bytesText(option.length)));
                break;
            }
            (option.code == pcapngopt::kPacketProcessIndex ? processIndex : effectiveIndex) =
                byteorder::load32(option.value, swapped_);
            break;
        default:
            break;
        }
    }
    if (reader.malformed()) {
        warnOnce(warnedMalformedOption_, block.offset, "option runs past the end of its block");
    }
    if (!processComments_.empty()) {
        packet.process = processOfComments(processComments_);
    }
    if (packet.process == nullptr && (processIndex || effectiveIndex)) {
        packet.process = processOfBlocks(block, processIndex, effectiveIndex);
    }
}

const PacketProcess* PcapngReader::processOfComments(const std::vector<std::string_view>& comments) {
    processKey_.assign(1, 'c');  // keys of their own kind in the table
    for (const std::string_view comment : comments) {
        processKey_.append(comment);
        processKey_.push_back('\0');
    }
    const PacketProcess* process = processes_.find(processKey_);
    if (process == nullptr) {
        PacketProcess read;
        for (const std::string_view comment : comments) {
            readPtcpdumpComment(comment, read);  // a comment that is not ptcpdump's adds nothing
        }
        process = processes_.add(processKey_, std::move(read));  // an unknown one too: read once
    }
    return process != nullptr && process->known() ? process : nullptr;
}

void PcapngReader::addProcessBlock(const Block& block) {
    if (processBlocks_.size() >= kMaxProcessBlocks) {
        warnOnce(warnedTooManyProcessBlocks_, block.offset,
                 fmt::format("more than {} process information blocks in one section; further ones are ignored",
                             kMaxProcessBlocks));
        return;
    }
    ProcessBlock& kept = processBlocks_.emplace_back();
    kept.offset = block.offset;
    if (block.bodyLength < kProcessFixedBytes) {
        kept.problem = fmt::format("is too short ({} bytes) to hold a process id", block.length);
        return;
    }
    PacketProcess process;
    if (const uint32_t pid = byteorder::load32(block.body, swapped_); pid != 0) {
        process.pid = pid;
    }
    PcapngOptionReader options(block.body + kProcessFixedBytes, block.bodyLength - kProcessFixedBytes, swapped_);
    PcapngOption option;
    while (options.next(option)) {
        if (option.code == pcapngopt::kProcessName) {
            process.command = validUtf8(optionText(option));
        } else if (option.code == pcapngopt::kProcessUuid && option.length == kUuidBytes) {
            process.uuid.clear();
            for (size_t i = 0; i < kUuidBytes; ++i) {
                process.uuid += fmt::format("{:02x}", option.value[i]);
            }
        }
    }
    if (options.malformed()) {
        kept.problem = "has an option that runs past its end (what comes before it is used)";
    }
    kept.process = std::move(process);
}

const PacketProcess* PcapngReader::processOfBlocks(const Block& block, std::optional<uint32_t> index,
                                                   std::optional<uint32_t> effectiveIndex) {
    if (!index) {
        index = effectiveIndex;  // only the effective process is named: it is the packet's
    }
    if (*index >= processBlocks_.size() || (effectiveIndex && *effectiveIndex >= processBlocks_.size())) {
        warnOnce(warnedProcessIndex_, block.offset,
                 fmt::format("packet names process information block {}, but the section holds {} before it; the "
                             "packet's process is unknown",
                             std::max(*index, effectiveIndex.value_or(0)), processBlocks_.size()));
        return nullptr;
    }
    const uint32_t effective = effectiveIndex.value_or(*index);
    for (const uint32_t named : {*index, effective}) {
        if (const ProcessBlock& namedBlock = processBlocks_[named]; !namedBlock.problem.empty() && !warnedProcessBlock_) {
            warnOnce(warnedProcessBlock_, block.offset,
                     fmt::format("packet names process information block {} (at offset {}), which {}", named,
                                 namedBlock.offset, namedBlock.problem));
        }
    }
    processKey_.assign(1, 'b');  // keys of their own kind in the table
    for (const uint32_t value : {section_, *index, effective}) {
        processKey_.append(reinterpret_cast<const char*>(&value), sizeof value);
    }
    const PacketProcess* process = processes_.find(processKey_);
    if (process == nullptr) {
        PacketProcess built = processBlocks_[*index].process.value_or(PacketProcess{});
        const std::optional<PacketProcess>& onBehalfOf = processBlocks_[effective].process;
        if (effective != *index && onBehalfOf && onBehalfOf->pid != built.pid) {
            built.effectivePid = onBehalfOf->pid;
            built.effectiveCommand = onBehalfOf->command;
        }
        process = processes_.add(processKey_, std::move(built));
    }
    return process != nullptr && process->known() ? process : nullptr;
}

}  // namespace tcpscope
