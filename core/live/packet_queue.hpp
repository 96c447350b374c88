#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include "capture/raw_packet.hpp"

namespace tcpscope {

/// Packets copied out of the capture buffer, kept in one byte arena so that a batch costs no
/// allocation once the vectors have grown.
class PacketBatch {
public:
    /// Copies `packet` (its bytes, header fields, comment and direction) into the batch.
    void append(const RawPacket& packet);
    /// Packet `index`, pointing into this batch's bytes (valid until the batch changes).
    [[nodiscard]] RawPacket at(size_t index) const;
    [[nodiscard]] size_t size() const { return headers_.size(); }
    [[nodiscard]] size_t bytes() const { return bytes_.size(); }
    [[nodiscard]] bool empty() const { return headers_.empty(); }
    /// Empties the batch, keeping its memory.
    void clear();
    void swap(PacketBatch& other) noexcept;

private:
    struct Header {
        int64_t tsNs;
        uint32_t capturedLength;
        uint32_t originalLength;
        uint32_t linkType;
        uint32_t interfaceId;
        size_t offset;           // of the bytes, followed by the comment's
        uint32_t commentLength;  // RawPacket::comment (a recorded packet's process)
        PacketDirection direction;
    };
    std::vector<Header> headers_;
    std::vector<uint8_t> bytes_;
};

/// The bounded hand-over between the capture thread and the analysis thread. The capture side
/// never waits: when the analysis is behind by more than the limits, the packet is counted as
/// dropped for the analysis (it is still in the written file) and capture goes on.
class PacketQueue {
public:
    PacketQueue(size_t maxPackets, size_t maxBytes) : maxPackets_(maxPackets), maxBytes_(maxBytes) {}

    /// Copies `packet` in, or counts it dropped if the queue is full. Returns false if dropped.
    bool push(const RawPacket& packet);
    /// Waits up to `timeout` for packets (or close()), then moves every queued packet into `batch`
    /// (which is emptied first). Returns false once the queue is closed and empty.
    bool take(PacketBatch& batch, std::chrono::milliseconds timeout);
    /// No more packets will come: take() returns what is left, then false.
    void close();

    /// Packets not analysed because the queue was full.
    [[nodiscard]] uint64_t dropped() const;
    /// The most packets that were waiting at once.
    [[nodiscard]] size_t highWater() const;

private:
    mutable std::mutex mutex_;
    std::condition_variable ready_;
    PacketBatch pending_;
    size_t maxPackets_;
    size_t maxBytes_;
    uint64_t dropped_ = 0;
    size_t highWater_ = 0;
    bool closed_ = false;
};

}  // namespace tcpscope
