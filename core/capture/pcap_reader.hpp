#pragma once
#include <cstdint>

#include "capture/source_backed_reader.hpp"

namespace tcpscope {

/// Reader of the classic libpcap format: microsecond (a1b2c3d4) and nanosecond (a1b23c4d)
/// files in either byte order, and the Kuznetzov variant (a1b2cd34) with longer record headers.
class PcapReader final : public SourceBackedReader {
public:
    /// The largest captured length accepted in any record (libpcap's own maximum snapshot length).
    static constexpr uint32_t kMaxCapturedBytes = 256 * 1024;

    /// Reads the file header from `source`. Throws CaptureError if it is not a valid pcap header.
    explicit PcapReader(ByteSource source);

    bool next(RawPacket& packet) override;

    /// LINKTYPE_* of every packet in the file (the FCS bits of the header field masked off).
    [[nodiscard]] uint32_t linkType() const { return linkType_; }
    /// Snapshot length from the file header, as written.
    [[nodiscard]] uint32_t snapLength() const { return snapLength_; }

private:
    /// Called when the stream cannot deliver a whole record: notes a file cut short.
    void finish(uint64_t recordOffset, const char* what);

    bool swapped_ = false;
    bool nanoseconds_ = false;
    // Files older than format 2.3 put the original length before the captured length; 2.3
    // files may do either.
    bool lengthsSwapped_ = false;
    bool lengthsMaybeSwapped_ = false;
    bool warnedAboveSnapLength_ = false;
    bool done_ = false;
    uint32_t recordHeaderBytes_ = 16;
    uint32_t linkType_ = 0;
    uint32_t snapLength_ = 0;
    uint32_t maxCapturedBytes_ = kMaxCapturedBytes;
};

}  // namespace tcpscope
