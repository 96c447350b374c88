#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "capture/pcapng_writer.hpp"
#include "capture/raw_packet.hpp"
#include "live/packet_source.hpp"

namespace tcpscope {

/// Where the captured packets go: one pcapng file, or a ring of files (as `tcpdump -C/-W/-G` and
/// `dumpcap -b filesize/files/duration`).
struct CaptureFileOptions {
    std::string path;           ///< the file; with a ring, NAME.pcapng becomes NAME_00001.pcapng, NAME_00002.pcapng, ...
    uint64_t maxFileBytes = 0;  ///< start a new file once one reaches this size (0: no limit)
    int64_t maxFileNs = 0;      ///< start a new file once one spans this much capture time (0: no limit)
    uint32_t maxFiles = 0;      ///< keep only the newest this many files, deleting older ones (0: keep all)
    std::string application{};  ///< the section header's shb_userappl; empty: "tcpscope VERSION"

    [[nodiscard]] bool ring() const { return maxFileBytes != 0 || maxFileNs != 0; }
};

/// Writes captured packets to pcapng as they come, flushed after every batch the system delivered,
/// so that a kill loses at most the batch in hand and every file is complete at every flush.
/// Throws PcapngWriteError when a file cannot be created, written or deleted.
class CaptureFileWriter {
public:
    /// Opens the first file. `source` describes the interface (name, filter, snapshot length).
    CaptureFileWriter(CaptureFileOptions options, CaptureDescription source);

    /// Writes `packet` with its comment and direction, if it has them.
    void write(const RawPacket& packet);
    /// Writes a Custom Block into the current file (the calls recorded beside the packets).
    void writeCustomBlock(uint32_t type, uint32_t pen, std::span<const uint8_t> data);
    /// Writes out the packets of the batch.
    void flush();
    /// Writes the kernel's counters (Interface Statistics Block) into the current file and closes it.
    void close(const CaptureStats& stats, int64_t startNs, int64_t endNs);

    /// Every file written and still kept, oldest first.
    [[nodiscard]] const std::deque<std::string>& files() const { return files_; }
    [[nodiscard]] uint64_t packetsWritten() const { return packets_; }
    /// Files deleted because the ring was full.
    [[nodiscard]] uint64_t filesDeleted() const { return deleted_; }

private:
    void openNext();
    [[nodiscard]] std::string nameOf(uint64_t sequence) const;
    uint32_t interfaceFor(const RawPacket& packet);

    CaptureFileOptions options_;
    CaptureDescription source_;
    std::unique_ptr<PcapngWriter> writer_;
    std::vector<std::pair<uint32_t, uint32_t>> interfaces_;  // (source interface id, link type) -> index = file's id
    std::deque<std::string> files_;
    uint64_t sequence_ = 0;
    uint64_t packets_ = 0;
    uint64_t deleted_ = 0;
    int64_t fileStartNs_ = 0;
    bool fileHasPackets_ = false;
};

}  // namespace tcpscope
