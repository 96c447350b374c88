#include "live/packet_queue.hpp"

#include <algorithm>

namespace tcpscope {

void PacketBatch::append(const RawPacket& packet) {
    headers_.push_back(Header{packet.tsNs, packet.capturedLength, packet.originalLength, packet.linkType,
                              packet.interfaceId, bytes_.size(), static_cast<uint32_t>(packet.comment.size()),
                              packet.direction});
    bytes_.insert(bytes_.end(), packet.data, packet.data + packet.capturedLength);
    bytes_.insert(bytes_.end(), packet.comment.begin(), packet.comment.end());
}

RawPacket PacketBatch::at(size_t index) const {
    const Header& header = headers_[index];
    RawPacket packet;
    packet.tsNs = header.tsNs;
    packet.capturedLength = header.capturedLength;
    packet.originalLength = header.originalLength;
    packet.linkType = header.linkType;
    packet.interfaceId = header.interfaceId;
    packet.data = bytes_.data() + header.offset;
    if (header.commentLength > 0) {
        packet.comment = std::string_view(reinterpret_cast<const char*>(packet.data + header.capturedLength),
                                          header.commentLength);
    }
    packet.direction = header.direction;
    return packet;
}

void PacketBatch::clear() {
    headers_.clear();
    bytes_.clear();
}

void PacketBatch::swap(PacketBatch& other) noexcept {
    headers_.swap(other.headers_);
    bytes_.swap(other.bytes_);
}

bool PacketQueue::push(const RawPacket& packet) {
    {
        const std::lock_guard lock(mutex_);
        if (pending_.size() >= maxPackets_ || pending_.bytes() + packet.capturedLength > maxBytes_) {
            ++dropped_;
            return false;
        }
        pending_.append(packet);
        highWater_ = std::max(highWater_, pending_.size());
    }
    ready_.notify_one();
    return true;
}

bool PacketQueue::take(PacketBatch& batch, std::chrono::milliseconds timeout) {
    batch.clear();
    std::unique_lock lock(mutex_);
    ready_.wait_for(lock, timeout, [this] { return !pending_.empty() || closed_; });
    batch.swap(pending_);
    return !(closed_ && batch.empty());
}

void PacketQueue::close() {
    {
        const std::lock_guard lock(mutex_);
        closed_ = true;
    }
    ready_.notify_all();
}

uint64_t PacketQueue::dropped() const {
    const std::lock_guard lock(mutex_);
    return dropped_;
}

size_t PacketQueue::highWater() const {
    const std::lock_guard lock(mutex_);
    return highWater_;
}

}  // namespace tcpscope
