#include "tcp/packet_index.hpp"

#include <algorithm>

namespace tcpscope {

namespace {
constexpr uint16_t kFromServerBit = 0x8000;
constexpr int kOffsetBits = 48;
constexpr uint64_t kOffsetMask = (uint64_t{1} << kOffsetBits) - 1;
}  // namespace

size_t PacketIndex::append(const IndexedPacket& packet) {
    if ((size_ & kMask) == 0) {
        // make_unique_for_overwrite: the columns are written before they are read.
        chunks_.push_back(std::make_unique_for_overwrite<Chunk>());
    }
    Chunk& target = *chunks_.back();
    const size_t slot = size_ & kMask;
    target.tsNs[slot] = packet.tsNs;
    target.fileAndOffset[slot] = (uint64_t{packet.fileIndex} << kOffsetBits) | (packet.recordOffset & kOffsetMask);
    target.frame[slot] = packet.frame;
    target.connection[slot] = packet.connection;
    target.seq[slot] = packet.seq;
    target.ack[slot] = packet.ack;
    target.lengthAndFlags[slot] = (std::min(packet.payloadLength, kMaxPayloadLength) << 8) | packet.tcpFlags;
    target.window[slot] = packet.window;
    target.analysis[slot] = static_cast<uint16_t>((packet.analysis & ~kFromServerBit) |
                                                  (packet.fromServer ? kFromServerBit : 0));
    return size_++;
}

void PacketIndex::setAnalysis(size_t index, AnalysisFlags flags) {
    uint16_t& stored = chunks_[index >> kChunkBits]->analysis[index & kMask];
    stored = static_cast<uint16_t>((stored & kFromServerBit) | (flags & ~kFromServerBit));
}

size_t PacketIndex::firstAtOrAfterFrame(uint32_t wanted) const {
    size_t low = 0;
    size_t high = size_;
    while (low < high) {
        const size_t middle = low + (high - low) / 2;
        if (frame(middle) < wanted) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low;
}

size_t PacketIndex::positionOfFrame(uint32_t wanted) const {
    const size_t position = firstAtOrAfterFrame(wanted);
    return position < size_ && frame(position) == wanted ? position : size_;
}

IndexedPacket PacketIndex::at(size_t index) const {
    const Chunk& source = chunk(index);
    const size_t slot = index & kMask;
    IndexedPacket packet;
    packet.tsNs = source.tsNs[slot];
    packet.recordOffset = source.fileAndOffset[slot] & kOffsetMask;
    packet.fileIndex = static_cast<uint32_t>(source.fileAndOffset[slot] >> kOffsetBits);
    packet.frame = source.frame[slot];
    packet.connection = source.connection[slot];
    packet.seq = source.seq[slot];
    packet.ack = source.ack[slot];
    packet.payloadLength = source.lengthAndFlags[slot] >> 8;
    packet.tcpFlags = static_cast<uint8_t>(source.lengthAndFlags[slot] & 0xff);
    packet.window = source.window[slot];
    packet.fromServer = (source.analysis[slot] & kFromServerBit) != 0;
    packet.analysis = static_cast<AnalysisFlags>(source.analysis[slot] & ~kFromServerBit);
    return packet;
}

}  // namespace tcpscope
