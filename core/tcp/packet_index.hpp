#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
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

/// Where and when a PacketIndex moves its older chunks out of memory.
struct PacketIndexSpill {
    std::string directory;      ///< an unlinked file is made here; empty: the index stays in memory
    size_t residentChunks = 2;  ///< the newest chunks, always kept in memory (at least 1)
};

/// The compact per-packet index of every TCP packet analysed, stored as columns in fixed-size
/// chunks: about 30 bytes per packet, no reallocation copies as it grows, payloads never kept.
/// Time, file position and frame number are stored as differences from the first packet of their
/// block of 256; a difference that does not fit (a pause of more than 4.29 s, another input file,
/// more than 65,534 other frames) is kept whole in a small per-chunk table instead.
/// With spilling on, every full chunk older than the newest few is written to an unlinked file
/// and mapped back shared: each position stays readable and writable through the same calls, and
/// the chunk's memory is given back (the kernel pages the mapped file in and out as it is read).
/// Chunks are shared with snapshots: the index only ever appends, so a snapshot is a packet count
/// and the chunks that hold them, readable on another thread while the index keeps growing.
class PacketIndex {
public:
    static constexpr size_t kChunkBits = 16;
    static constexpr size_t kChunkSize = size_t{1} << kChunkBits;
    static constexpr size_t kBlockBits = 8;
    static constexpr size_t kBlockSize = size_t{1} << kBlockBits;
    static constexpr size_t kBytesPerPacket = 30;  ///< columns per packet, besides the block bases and escapes
    static constexpr uint32_t kMaxPayloadLength = (1u << 24) - 1;

    PacketIndex() = default;
    ~PacketIndex();
    PacketIndex(const PacketIndex&) = delete;
    PacketIndex& operator=(const PacketIndex&) = delete;
    PacketIndex(PacketIndex&& other) noexcept;
    PacketIndex& operator=(PacketIndex&& other) noexcept;

    /// Turns spilling on (before the first append). If the file cannot be made, the index stays
    /// in memory and spillProblem() says why; a later write error stops spilling the same way.
    void spillTo(const PacketIndexSpill& spill);

    /// Appends a packet; returns its index.
    size_t append(const IndexedPacket& packet);
    /// Changes the analysis flags of an already stored packet (used when a later packet
    /// reclassifies an earlier one). A spilled packet is changed in its file.
    void setAnalysis(size_t index, AnalysisFlags flags);

    [[nodiscard]] size_t size() const { return size_; }
    [[nodiscard]] IndexedPacket at(size_t index) const;
    [[nodiscard]] int64_t tsNs(size_t index) const {
        return decoded<int64_t, &Columns::tsBase, &Columns::tsDelta, &Escapes::ts>(index);
    }
    [[nodiscard]] uint32_t connection(size_t index) const { return chunk(index).connection[index & kMask]; }
    [[nodiscard]] uint32_t frame(size_t index) const {
        return decoded<uint32_t, &Columns::frameBase, &Columns::frameDelta, &Escapes::frame>(index);
    }
    /// The first position whose frame number is at least `frame` (frames grow with the position;
    /// non-TCP frames are not in the index), or size() if there is none.
    [[nodiscard]] size_t firstAtOrAfterFrame(uint32_t frame) const;
    /// The position of the packet with frame number `frame`, or size() if it is not a TCP packet of the index.
    [[nodiscard]] size_t positionOfFrame(uint32_t frame) const;
    [[nodiscard]] AnalysisFlags analysis(size_t index) const {
        return static_cast<AnalysisFlags>(storedAnalysis(index) & 0x7fff);
    }
    /// Bytes held in memory: whole chunks not spilled, and the values kept whole, for memory accounting.
    [[nodiscard]] size_t memoryBytes() const {
        return (chunks_.size() - spilledChunks_) * kChunkBytes + escapes_.size() * sizeof(Escapes) +
               escapeCount_ * sizeof(Escape);
    }
    /// Bytes of one chunk of kChunkSize packets (columns, block bases, padding to whole pages).
    static constexpr size_t chunkBytes() { return kChunkBytes; }
    /// Bytes moved to the spill file.
    [[nodiscard]] size_t spilledBytes() const { return spilledChunks_ * kChunkBytes; }
    /// Why spilling is off although it was asked for (the file could not be made or written), or empty.
    [[nodiscard]] const std::string& spillProblem() const { return spillProblem_; }
    /// The packets stored so far, readable on any thread while this index goes on appending (and
    /// spilling). Shares the chunks (in memory or mapped) and copies only the newest chunk's few
    /// escaped values: the cost does not grow with the packets. Analysis flags set after the
    /// snapshot may or may not show in it.
    [[nodiscard]] std::shared_ptr<const PacketIndex> snapshot() const;

private:
    static constexpr size_t kMask = kChunkSize - 1;

    static constexpr size_t kBlocks = kChunkSize / kBlockSize;
    static constexpr uint32_t kEscaped32 = std::numeric_limits<uint32_t>::max();  // kept whole in the escape table
    static constexpr uint16_t kEscaped16 = std::numeric_limits<uint16_t>::max();

    // Columns of one chunk, padded to whole pages. The place is the file index (16 bits) and the
    // record offset (48 bits, 256 TiB) in one number.
    struct Columns {
        std::array<int64_t, kBlocks> tsBase;
        std::array<uint64_t, kBlocks> placeBase;
        std::array<uint32_t, kBlocks> frameBase;
        std::array<uint32_t, kChunkSize> tsDelta;
        std::array<uint32_t, kChunkSize> placeDelta;
        std::array<uint32_t, kChunkSize> connection;
        std::array<uint32_t, kChunkSize> seq;
        std::array<uint32_t, kChunkSize> ack;
        std::array<uint32_t, kChunkSize> lengthAndFlags;  // payload length << 8 | tcp flags
        std::array<uint16_t, kChunkSize> frameDelta;
        std::array<uint16_t, kChunkSize> window;
        std::array<uint16_t, kChunkSize> analysis;        // AnalysisFlags; bit 15 = from server
    };
    static constexpr size_t kPageBytes = 4096;  // spilled chunks are mapped at page-aligned file offsets
    static constexpr size_t kChunkBytes = (sizeof(Columns) + kPageBytes - 1) / kPageBytes * kPageBytes;
    struct Chunk : Columns {
        std::array<char, kChunkBytes - sizeof(Columns)> padding;
    };
    static_assert(sizeof(Columns) == kChunkSize * kBytesPerPacket + kBlocks * 20);
    static_assert(sizeof(Chunk) == kChunkBytes);

    // A value that did not fit its column, by slot in the chunk (sorted: slots are appended in order).
    struct Escape {
        uint32_t slot;
        uint64_t value;
    };
    struct Escapes {
        std::vector<Escape> ts;
        std::vector<Escape> place;
        std::vector<Escape> frame;
    };
    [[nodiscard]] static uint64_t escaped(const std::vector<Escape>& escapes, size_t slot);
    // A value stored as a difference from its block's base, or kept whole where the column holds
    // the marker (the largest value of its type).
    template <typename Value, auto Base, auto Delta, auto Table>
    [[nodiscard]] Value decoded(size_t index) const {
        const Chunk& source = chunk(index);
        const size_t slot = index & kMask;
        const auto delta = (source.*Delta)[slot];
        if (delta != std::numeric_limits<decltype(delta)>::max()) {
            return static_cast<Value>((source.*Base)[slot >> kBlockBits] + delta);
        }
        return static_cast<Value>(escaped(escapes_[index >> kChunkBits].get()->*Table, slot));
    }
    [[nodiscard]] uint64_t place(size_t index) const {
        return decoded<uint64_t, &Columns::placeBase, &Columns::placeDelta, &Escapes::place>(index);
    }

    [[nodiscard]] const Chunk& chunk(size_t index) const { return *chunks_[index >> kChunkBits]; }
    // The analysis column is the one a stored packet can change in (setAnalysis): it is read and
    // written atomically, as a snapshot may read it on another thread.
    [[nodiscard]] uint16_t storedAnalysis(size_t index) const;
    // Moves the oldest chunk still in memory to the spill file, if more than residentChunks are.
    void spillOldest();
    void stopSpilling(std::string problem);
    void release();

    // Chunks [0, spilledChunks_) are mappings of the spill file, the rest are heap allocations;
    // each is freed or unmapped when neither the index nor a snapshot holds it.
    std::vector<std::shared_ptr<Chunk>> chunks_;
    std::vector<std::shared_ptr<Escapes>> escapes_;  // one per chunk, always in memory; full chunks' never change
    size_t escapeCount_ = 0;
    size_t size_ = 0;
    size_t spilledChunks_ = 0;
    size_t residentChunks_ = 0;
    int spillFd_ = -1;
    std::string spillProblem_;
};

}  // namespace tcpscope
