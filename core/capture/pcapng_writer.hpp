#pragma once
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "capture/capture_output.hpp"
#include "capture/packet_process.hpp"

namespace tcpscope {

/// Thrown when a pcapng file cannot be created or written (the error of every capture writer).
using PcapngWriteError = CaptureWriteError;

/// The Section Header Block's descriptive options (empty strings are left out).
struct PcapngSectionInfo {
    std::string hardware;         ///< shb_hardware
    std::string os;               ///< shb_os
    std::string application;      ///< shb_userappl
    std::vector<std::string> comments;  ///< shb_comment, one option each
};

/// One interface (Interface Description Block).
struct PcapngInterfaceInfo {
    uint32_t linkType = 0;    ///< LINKTYPE_* value
    uint32_t snapLength = 0;  ///< 0: no limit
    std::string name;         ///< if_name, e.g. "lo" (left out if empty)
    std::string description;  ///< if_description
    std::string filter;       ///< if_filter, the libpcap filter expression the capture used
    /// if_tsresol: this interface's timestamps are in 10^-digits seconds (0..9; 6: microseconds,
    /// 9: nanoseconds). Times of its packets are cut to this resolution.
    uint8_t tsResolutionDigits = 9;
    /// if_tsoffset: this interface's packet times count from this many seconds after the epoch
    /// (a capture far from it, TimeOrigin); written only when not 0.
    int64_t tsOffsetSeconds = 0;
};

/// One packet (Enhanced Packet Block).
struct PcapngPacket {
    uint32_t interfaceId = 0;         ///< as returned by addInterface()
    int64_t tsNs = 0;                 ///< capture time, nanoseconds after the interface's tsOffsetSeconds
    uint32_t originalLength = 0;      ///< length on the wire (at least data.size())
    std::span<const uint8_t> data;    ///< the captured bytes
    std::string_view comment;         ///< opt_comment, left out if empty
    std::span<const std::string_view> moreComments = {};  ///< further opt_comment options, in this order
    /// epb_flags' direction bits (inbound 1, outbound 2); the option is left out when Unknown.
    PacketDirection direction = PacketDirection::Unknown;
};

/// Counters of one interface at the end of a capture (Interface Statistics Block).
struct PcapngInterfaceStats {
    uint32_t interfaceId = 0;
    int64_t tsNs = 0;          ///< when the counters were read
    int64_t startNs = 0;       ///< isb_starttime (left out if 0)
    uint64_t received = 0;     ///< isb_ifrecv: packets the capture saw
    uint64_t droppedByKernel = 0;     ///< isb_osdrop: no room in the capture buffer
    uint64_t droppedByInterface = 0;  ///< isb_ifdrop: dropped by the interface or its driver
    uint64_t delivered = 0;    ///< isb_usrdeliv: packets written to this file
};

/// When the blocks reach the file. Each flush is one write(2), so once it has returned a crash or
/// a kill of this process loses nothing written before it.
enum class PcapngFlush {
    EveryBlock,  ///< after every block: a kill loses at most the block being written
    Manual,      ///< when flush() is called (after a batch of packets) or the buffer is full
};

/// Writes a pcapng file block by block (one section, any number of interfaces each in its own
/// timestamp resolution, packets with any number of comments, interface statistics), in the host's
/// byte order. Readable by tcpscope, tshark and tcpdump at every flush. Used by live capture and by
/// the annotated copy (annotate/pcapng_copy).
class PcapngWriter {
public:
    /// Creates (or truncates) `path` and writes the Section Header Block. Throws PcapngWriteError.
    PcapngWriter(const std::string& path, const PcapngSectionInfo& section,
                 PcapngFlush flushPolicy = PcapngFlush::EveryBlock);
    /// Writes to an open descriptor (a pipe, standard output) which it does not close; `name`
    /// stands for it in messages (e.g. "standard output").
    PcapngWriter(int fd, std::string name, const PcapngSectionInfo& section,
                 PcapngFlush flushPolicy = PcapngFlush::EveryBlock);
    /// Writes to an open stdio stream (flushed first, then written through its descriptor),
    /// which it does not close.
    PcapngWriter(std::FILE* stream, std::string name, const PcapngSectionInfo& section,
                 PcapngFlush flushPolicy = PcapngFlush::EveryBlock);
    /// Flushes what is left (errors are dropped here: call close() to see them) and closes an owned file.
    ~PcapngWriter();
    PcapngWriter(const PcapngWriter&) = delete;
    PcapngWriter& operator=(const PcapngWriter&) = delete;

    /// Writes an Interface Description Block; returns the interface's id for packets. Throws
    /// std::invalid_argument for a link type over 16 bits or a resolution over 9 digits.
    uint32_t addInterface(const PcapngInterfaceInfo& interface);
    /// Writes an Enhanced Packet Block. Throws std::invalid_argument for an unknown interface or
    /// an original length below the captured one.
    void writePacket(const PcapngPacket& packet);
    /// Writes an Interface Statistics Block (drop counters at the end of a capture).
    void writeInterfaceStats(const PcapngInterfaceStats& stats);
    /// Writes a Custom Block of `type` (0x00000BAD or 0x40000BAD) holding the Private Enterprise
    /// Number `pen` and `data` (padded to 4 bytes), without options.
    void writeCustomBlock(uint32_t type, uint32_t pen, std::span<const uint8_t> data);
    /// Writes out every buffered block.
    void flush();
    /// Flushes and asks the kernel to put the file on disk (fsync; a file, not a pipe).
    void sync();
    /// Flushes, and closes the file if this writer opened it. Further writes throw.
    void close();

    [[nodiscard]] const std::string& name() const { return output_.name(); }
    /// Bytes of the file so far (buffered ones included).
    [[nodiscard]] uint64_t bytesWritten() const { return output_.offset() + buffer_.size(); }
    [[nodiscard]] uint64_t packetsWritten() const { return packets_; }
    [[nodiscard]] size_t interfaceCount() const { return nsPerUnit_.size(); }

private:
    void writeSectionHeader(const PcapngSectionInfo& section);
    void beginBlock(uint32_t type);
    void endBlock();
    void put16(uint16_t value);
    void put32(uint32_t value);
    void put64(uint64_t value);
    void putBytes(std::span<const uint8_t> bytes);
    void putPadding();
    void putOption(uint16_t code, std::span<const uint8_t> value);
    void putOption(uint16_t code, std::string_view text);
    void putOption64(uint16_t code, uint64_t value);
    void putTimestamp(int64_t tsNs, uint32_t interfaceId);
    void putTimestampOption(uint16_t code, int64_t tsNs, uint32_t interfaceId);
    void putEndOfOptions();
    void requireOpen() const;
    void requireInterface(uint32_t interfaceId, const char* what) const;

    CaptureOutput output_;
    PcapngFlush flushPolicy_;
    std::vector<uint8_t> buffer_;
    size_t blockStart_ = 0;
    uint64_t packets_ = 0;
    std::vector<int64_t> nsPerUnit_;  ///< per interface: nanoseconds in one unit of its timestamps
};

}  // namespace tcpscope
