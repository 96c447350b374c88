#pragma once
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "capture/byte_source.hpp"
#include "capture/capture_reader.hpp"
#include "capture/packet_process_table.hpp"
#include "capture/pktap_header.hpp"

namespace tcpscope {

/// The part every reader shares: it owns the ByteSource and answers the questions about the file
/// (format, problems, progress) from it. Subclasses only parse records in next().
class SourceBackedReader : public CaptureReader {
public:
    [[nodiscard]] const CaptureFormat& format() const final { return format_; }
    [[nodiscard]] const std::vector<InputProblem>& warnings() const final { return source_.warnings(); }
    [[nodiscard]] const InputProblem* error() const final { return source_.error(); }
    [[nodiscard]] const std::optional<CutShort>& cutShort() const final { return cutShort_; }
    [[nodiscard]] TimeOrigin timeOrigin() const final { return origin_; }
    [[nodiscard]] uint64_t bytesConsumed() const final { return source_.bytesConsumed(); }
    [[nodiscard]] uint64_t fileSize() const final { return source_.fileSize(); }
    [[nodiscard]] const std::string& path() const final { return source_.name(); }

protected:
    SourceBackedReader(ByteSource source, std::string container)
        : source_(std::move(source)), format_{std::move(container), compressionName(source_.compression())} {}

    /// "1 byte", "N bytes": for messages.
    static std::string bytesText(uint64_t count) { return std::to_string(count) + (count == 1 ? " byte" : " bytes"); }

    /// Throws CaptureError for a problem that makes the file unreadable from the start.
    [[noreturn]] void reject(uint64_t offset, std::string reason) const {
        throw CaptureError(InputProblem{source_.name(), offset, std::move(reason)});
    }

    /// Notes that the file ends `bytesLeft` bytes into the record at `recordOffset`, and says so.
    void endInsideRecord(uint64_t recordOffset, uint64_t bytesLeft, std::string reason) {
        cutShort_ = CutShort{recordOffset, bytesLeft};
        source_.warn(recordOffset, std::move(reason));
    }

    /// `epochNs` (nanoseconds after the epoch) as nanoseconds after the file's origin, which the first
    /// call chooses. A packet more than 146 years from it is held at kPacketTimeReachNs, with a
    /// warning (once).
    int64_t packetTimeNs(WideNs epochNs, uint64_t recordOffset) {
        if (!originChosen_) {
            origin_ = TimeOrigin::forFirstPacket(EpochTime::fromWideNs(epochNs));
            originChosen_ = true;
        }
        const std::optional<int64_t> ns = origin_.relativeNs(epochNs);
        if (ns && heldPacketTimeNs(*ns) == *ns) {
            return *ns;
        }
        if (!warnedTimeRange_) {
            warnedTimeRange_ = true;
            source_.warn(recordOffset,
                         "packet time more than 146 years from the file's first packet; held at the "
                         "limit (reported once)");
        }
        return epochNs < WideNs{origin_.epochSeconds} * 1'000'000'000 ? -kPacketTimeReachNs : kPacketTimeReachNs;
    }

    /// For a pktap frame (LINKTYPE_PKTAP) whose process the file did not give otherwise: the process
    /// and direction of its header.
    void readPktapProcess(RawPacket& packet) {
        if (packet.linkType != linktype::kPktap || packet.process != nullptr) {
            return;
        }
        const std::optional<PktapHeader> header = readPktapHeader(packet.data, packet.capturedLength);
        if (!header) {
            return;  // the link decoder counts the frame as malformed or truncated
        }
        if (packet.direction == PacketDirection::Unknown) {
            packet.direction = header->direction;
        }
        pktapProcessKey(*header, processKey_);
        const PacketProcess* process = processes_.find(processKey_);
        if (process == nullptr) {
            process = processes_.add(processKey_, pktapProcess(*header));  // an unknown one too: read once
        }
        packet.process = process != nullptr && process->known() ? process : nullptr;
    }

    ByteSource source_;
    CaptureFormat format_;
    PacketProcessTable processes_;  ///< the processes of the file's packets (RawPacket::process)
    std::string processKey_;        ///< reused: what a packet's process is found under in processes_
    std::optional<CutShort> cutShort_;
    TimeOrigin origin_;
    bool originChosen_ = false;
    bool warnedTimeRange_ = false;
};

}  // namespace tcpscope
