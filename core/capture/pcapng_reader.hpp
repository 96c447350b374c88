#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "capture/source_backed_reader.hpp"
#include "capture/timestamp_scale.hpp"

namespace tcpscope {

/// Reader of pcapng files: any number of sections in either byte order, interfaces with their
/// own link type, snapshot length and timestamp resolution, and the three packet blocks
/// (enhanced, simple, and the obsolete packet block). The process of a packet is read from
/// ptcpdump's packet comments, Apple's process information blocks and pktap headers. Other blocks
/// are skipped by their length.
class PcapngReader final : public SourceBackedReader {
public:
    /// Blocks longer than this are taken for corruption (the largest real ones hold 256 KiB frames).
    static constexpr uint32_t kMaxBlockBytes = 16u << 20;

    /// Reads the first Section Header Block. Throws CaptureError if it is missing or invalid.
    explicit PcapngReader(ByteSource source);

    bool next(RawPacket& packet) override;
    [[nodiscard]] const std::vector<std::string>& sectionComments() const override { return sectionComments_; }
    void setCustomBlockListener(CustomBlockListener listener) override { customBlocks_ = std::move(listener); }

private:
    struct Interface {
        uint32_t linkType = 0;
        uint32_t snapLength = 0;  ///< 0: no limit
        TimestampScale scale;
    };
    struct Block {
        uint32_t type = 0;
        uint32_t length = 0;  ///< whole block, both length fields included
        uint64_t offset = 0;
        const uint8_t* body = nullptr;
        size_t bodyLength = 0;
    };

    /// Makes the next whole block available. False at the end of the file or on a fatal problem.
    bool readBlock(Block& block);
    /// Notes a block cut short by the end of the file.
    void endOfFile(uint64_t blockOffset, uint32_t blockLength);
    bool startSection(const Block& block);
    bool addInterface(const Block& block);
    bool readEnhancedPacket(const Block& block, RawPacket& packet);
    bool readObsoletePacket(const Block& block, RawPacket& packet);
    bool readSimplePacket(const Block& block, RawPacket& packet);
    /// Fills `packet` from the fields shared by enhanced and obsolete packet blocks; false (with a
    /// warning) when the packet cannot be delivered.
    bool fillPacket(const Block& block, uint32_t interfaceId, uint64_t timestamp, uint32_t capturedLength,
                    uint32_t originalLength, RawPacket& packet);
    /// Reads a packet block's options into `packet`: its first opt_comment (made valid UTF-8), its
    /// direction, and its process (ptcpdump's comments, or Apple's process information blocks).
    void readPacketOptions(const Block& block, const uint8_t* options, size_t length, RawPacket& packet);
    /// Keeps a process information block of the section (a bad one too, so that the later ones keep
    /// their index, with its problem said when a packet names it).
    void addProcessBlock(const Block& block);
    /// The process of process information blocks `index` and `effectiveIndex` (or only the first),
    /// or null with a warning when the section has no such block.
    const PacketProcess* processOfBlocks(const Block& block, std::optional<uint32_t> index,
                                         std::optional<uint32_t> effectiveIndex);
    /// The process that ptcpdump's `comments` of one packet describe, or null.
    const PacketProcess* processOfComments(const std::vector<std::string_view>& comments);

    /// Hands a custom block to the listener, if there is one.
    void passCustomBlock(const Block& block);
    void warnOnce(bool& warned, uint64_t offset, std::string reason);

    CustomBlockListener customBlocks_;
    std::vector<Interface> interfaces_;
    std::vector<std::string> sectionComments_;
    std::string repairedComment_;  ///< the current packet's comment when its bytes were not valid UTF-8
    /// A process information block of the section. Block types above 0x80000000 are for local use,
    /// so a problem in one is said only when a packet names it (as Apple's).
    struct ProcessBlock {
        std::optional<PacketProcess> process;  ///< nullopt: too short to hold a pid
        uint64_t offset = 0;
        std::string problem;  ///< what is wrong with it, or empty
    };
    std::vector<ProcessBlock> processBlocks_;  ///< the section's, in order
    std::vector<std::string_view> processComments_;  ///< reused: the current packet's ptcpdump comments
    uint32_t section_ = 0;    ///< sections started, for the keys of process information blocks
    bool swapped_ = false;
    bool done_ = false;
    bool warnedMalformedOption_ = false;
    bool warnedSimplePacketTime_ = false;
    bool warnedTooManyInterfaces_ = false;
    bool warnedProcessBlock_ = false;
    bool warnedProcessIndex_ = false;
    bool warnedProcessIndexLength_ = false;
    bool warnedTooManyProcessBlocks_ = false;
};

}  // namespace tcpscope
