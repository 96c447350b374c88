#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "tcp/analysis_flags.hpp"

namespace tcpscope {

/// One TCP packet as the index returns it (a copy assembled from the columns).
struct IndexedPacket {
    int64_t tsNs = 0;
    uint64_t recordOffset = 0;    ///< offset of the record in its (decompressed) capture file
    uint32_t fileIndex = 0;       ///< which input file (0-based, in the order given)
    uint32_t frame = 0;           ///< 1-based frame number over all frames of all inputs, as in Wireshark
    uint32_t connection = 0;      ///< connection id
    uint32_t seq = 0;             ///< raw (absolute) sequence number
    uint32_t ack = 0;             ///< raw acknowledgement number
    uint32_t payloadLength = 0;   ///< TCP payload bytes (from the IP header)
    uint8_t tcpFlags = 0;         ///< FIN..CWR bits (tcpflag values below 0x100)
    bool fromServer = false;      ///< false: client to server
    uint16_t window = 0;          ///< raw window field
    AnalysisFlags analysis = 0;
};

/// The compact per-packet index of every TCP packet analysed, stored as columns in fixed-size
/// chunks: 40 bytes per packet, no reallocation copies as it grows, payloads never kept.
class PacketIndex {
public:
    static constexpr size_t kChunkBits = 16;
    static constexpr size_t kChunkSize = size_t{1} << kChunkBits;
    static constexpr size_t kBytesPerPacket = 40;
    static constexpr uint32_t kMaxPayloadLength = (1u << 24) - 1;

    /// Appends a packet; returns its index.
    size_t append(const IndexedPacket& packet);
    /// Changes the analysis flags of an already stored packet (used when a later packet
    /// reclassifies an earlier one).
    void setAnalysis(size_t index, AnalysisFlags flags);

    [[nodiscard]] size_t size() const { return size_; }
    [[nodiscard]] IndexedPacket at(size_t index) const;
    [[nodiscard]] int64_t tsNs(size_t index) const { return chunk(index).tsNs[index & kMask]; }
    [[nodiscard]] uint32_t connection(size_t index) const { return chunk(index).connection[index & kMask]; }
    [[nodiscard]] uint32_t frame(size_t index) const { return chunk(index).frame[index & kMask]; }
    /// The first position whose frame number is at least `frame` (frames grow with the position;
    /// non-TCP frames are not in the index), or size() if there is none.
    [[nodiscard]] size_t firstAtOrAfterFrame(uint32_t frame) const;
    /// The position of the packet with frame number `frame`, or size() if it is not a TCP packet of the index.
    [[nodiscard]] size_t positionOfFrame(uint32_t frame) const;
    [[nodiscard]] AnalysisFlags analysis(size_t index) const {
        return static_cast<AnalysisFlags>(chunk(index).analysis[index & kMask] & 0x7fff);
    }
    /// Bytes held by the columns (whole chunks), for memory accounting.
    [[nodiscard]] size_t memoryBytes() const { return chunks_.size() * sizeof(Chunk); }

private:
    static constexpr size_t kMask = kChunkSize - 1;

    // Columns of one chunk. The record offset keeps 48 bits (256 TiB) and the file index 16.
    struct Chunk {
        std::array<int64_t, kChunkSize> tsNs;
        std::array<uint64_t, kChunkSize> fileAndOffset;
        std::array<uint32_t, kChunkSize> frame;
        std::array<uint32_t, kChunkSize> connection;
        std::array<uint32_t, kChunkSize> seq;
        std::array<uint32_t, kChunkSize> ack;
        std::array<uint32_t, kChunkSize> lengthAndFlags;  // payload length << 8 | tcp flags
        std::array<uint16_t, kChunkSize> window;
        std::array<uint16_t, kChunkSize> analysis;        // AnalysisFlags; bit 15 = from server
    };
    static_assert(sizeof(Chunk) == kChunkSize * kBytesPerPacket);

    [[nodiscard]] const Chunk& chunk(size_t index) const { return *chunks_[index >> kChunkBits]; }

    std::vector<std::unique_ptr<Chunk>> chunks_;
    size_t size_ = 0;
};

}  // namespace tcpscope
