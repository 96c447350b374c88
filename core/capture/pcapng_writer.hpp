#pragma once
#include <cstdint>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "capture/capture_error.hpp"

namespace tcpscope {

/// Thrown when a pcapng file cannot be created or written; says which file, at which offset, and why.
class PcapngWriteError : public std::runtime_error {
public:
    explicit PcapngWriteError(InputProblem problem);
    [[nodiscard]] const InputProblem& problem() const { return problem_; }

private:
    InputProblem problem_;
};

/// The Section Header Block's descriptive options (empty strings are left out).
struct PcapngSectionInfo {
    std::string hardware;         ///< shb_hardware
    std::string os;               ///< shb_os
    std::string application;      ///< shb_userappl
    std::vector<std::string> comments;  ///< shb_comment, one option each
};

/// One interface (Interface Description Block). Timestamps are always written in nanoseconds
/// (if_tsresol = 9).
struct PcapngInterfaceInfo {
    uint32_t linkType = 0;    ///< LINKTYPE_* value
    uint32_t snapLength = 0;  ///< 0: no limit
    std::string name;         ///< if_name, e.g. "lo" (left out if empty)
    std::string description;  ///< if_description
    std::string filter;       ///< if_filter, the libpcap filter expression the capture used
};

/// One packet (Enhanced Packet Block).
struct PcapngPacket {
    uint32_t interfaceId = 0;         ///< as returned by addInterface()
    int64_t tsNs = 0;                 ///< capture time, nanoseconds since the Unix epoch
    uint32_t originalLength = 0;      ///< length on the wire (at least data.size())
    std::span<const uint8_t> data;    ///< the captured bytes
    std::string_view comment;         ///< opt_comment, left out if empty
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

/// Writes a pcapng file block by block (one section, any number of interfaces, packets with
/// optional comments, interface statistics), in the host's byte order. Readable by tcpscope, tshark and
/// tcpdump at every flush.
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

    /// Writes an Interface Description Block; returns the interface's id for packets.
    uint32_t addInterface(const PcapngInterfaceInfo& interface);
    /// Writes an Enhanced Packet Block. Throws std::invalid_argument for an unknown interface or
    /// an original length below the captured one.
    void writePacket(const PcapngPacket& packet);
    /// Writes an Interface Statistics Block (drop counters at the end of a capture).
    void writeInterfaceStats(const PcapngInterfaceStats& stats);
    /// Writes out every buffered block.
    void flush();
    /// Flushes, and closes the file if this writer opened it. Further writes throw.
    void close();

    [[nodiscard]] const std::string& name() const { return name_; }
    /// Bytes of the file so far (buffered ones included).
    [[nodiscard]] uint64_t bytesWritten() const { return flushedBytes_ + buffer_.size(); }
    [[nodiscard]] uint64_t packetsWritten() const { return packets_; }
    [[nodiscard]] size_t interfaceCount() const { return interfaceCount_; }

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
    void putTimestamp(int64_t tsNs);
    void putTimestampOption(uint16_t code, int64_t tsNs);
    void putEndOfOptions();
    void requireOpen() const;
    [[noreturn]] void fail(uint64_t offset, const std::string& reason) const;

    std::string name_;
    int fd_ = -1;
    bool ownsFd_ = false;
    PcapngFlush flushPolicy_;
    std::vector<uint8_t> buffer_;
    size_t blockStart_ = 0;
    uint64_t flushedBytes_ = 0;
    uint64_t packets_ = 0;
    uint32_t interfaceCount_ = 0;
};

}  // namespace tcpscope
