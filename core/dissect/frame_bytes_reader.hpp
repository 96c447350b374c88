#pragma once
// The bytes of a frame, read again from its capture file by the record offset the packet index keeps.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "capture/capture_reader.hpp"
#include "dissect/dissection.hpp"

namespace tcpscope::dissect {

/// Reads single frames of one capture file again, by the offset of their record (IndexedPacket's
/// recordOffset), in any order. What a read costs:
/// - uncompressed pcap: one seek and one read per frame, nothing kept (2 us a frame, any order);
/// - uncompressed pcapng: the same, after the block headers before the farthest frame asked have
///   been walked once, in 1 MiB chunks (90 ms for 3 M blocks from the page cache); kept: the start
///   of each section and its interfaces' link types;
/// - compressed files (gzip, zstd) cannot be entered in the middle: the reader reads on from the
///   last frame asked, and from the start again when a frame before it is asked.
class FrameBytesReader {
public:
    /// Opens `path`. Throws CaptureError if it cannot be opened or is no capture.
    explicit FrameBytesReader(std::string path);
    ~FrameBytesReader();
    FrameBytesReader(const FrameBytesReader&) = delete;
    FrameBytesReader& operator=(const FrameBytesReader&) = delete;

    /// The frame whose record starts at `recordOffset`, or nullopt with problem() saying why
    /// (no record starts there, the file changed or ends before it).
    std::optional<FrameBytes> read(uint64_t recordOffset);
    /// Why the last read() found nothing.
    [[nodiscard]] const std::string& problem() const { return problem_; }
    [[nodiscard]] const std::string& path() const { return path_; }

private:
    /// A pcapng section: where it starts, its byte order, and the link type of each interface
    /// described in it so far.
    struct Section {
        uint64_t start = 0;
        bool bigEndian = false;
        std::vector<uint16_t> linkTypes;
    };
    enum class Mode { Pcap, Pcapng, Sequential };

    std::optional<FrameBytes> readPcap(uint64_t recordOffset);
    std::optional<FrameBytes> readPcapng(uint64_t recordOffset);
    std::optional<FrameBytes> readSequential(uint64_t recordOffset);
    /// Walks pcapng block headers until the block at `recordOffset` has been passed.
    bool walkPcapngTo(uint64_t recordOffset);
    bool readAt(uint64_t offset, void* destination, size_t length);
    std::optional<FrameBytes> fail(std::string reason);

    std::string path_;
    Mode mode_ = Mode::Sequential;
    std::FILE* file_ = nullptr;
    bool pcapBigEndian_ = false;  ///< pcap: the byte order of the headers
    uint32_t pcapLinkType_ = 0;
    std::vector<Section> sections_;  ///< pcapng, in file order
    uint64_t walkedTo_ = 0;          ///< pcapng: the offset of the next block header not yet walked
    std::unique_ptr<CaptureReader> sequential_;
    uint64_t sequentialAt_ = 0;  ///< the offset of the last record the sequential reader gave
    bool sequentialStarted_ = false;
    std::string problem_;
};

}  // namespace tcpscope::dissect
