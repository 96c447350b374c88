#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "capture/source_backed_reader.hpp"
#include "capture/timestamp_scale.hpp"

namespace tcpscope {

/// Reader of pcapng files: any number of sections in either byte order, interfaces with their
/// own link type, snapshot length and timestamp resolution, and the three packet blocks
/// (enhanced, simple, and the obsolete packet block). Other blocks are skipped by their length.
class PcapngReader final : public SourceBackedReader {
public:
    /// Blocks longer than this are taken for corruption (the largest real ones hold 256 KiB frames).
    static constexpr uint32_t kMaxBlockBytes = 16u << 20;

    /// Reads the first Section Header Block. Throws CaptureError if it is missing or invalid.
    explicit PcapngReader(ByteSource source);

    bool next(RawPacket& packet) override;
    [[nodiscard]] const std::vector<std::string>& sectionComments() const override { return sectionComments_; }

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
    /// The first opt_comment among the options (made valid UTF-8), or empty.
    std::string_view findComment(const uint8_t* options, size_t length);
    void warnOnce(bool& warned, uint64_t offset, std::string reason);

    std::vector<Interface> interfaces_;
    std::vector<std::string> sectionComments_;
    std::string repairedComment_;  ///< the current packet's comment when its bytes were not valid UTF-8
    bool swapped_ = false;
    bool done_ = false;
    bool warnedMalformedOption_ = false;
    bool warnedSimplePacketTime_ = false;
    bool warnedTooManyInterfaces_ = false;
};

}  // namespace tcpscope
