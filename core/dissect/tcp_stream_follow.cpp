#include "dissect/tcp_stream_follow.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "capture/raw_packet.hpp"
#include "decode/packet_decoder.hpp"
#include "dissect/frame_bytes_reader.hpp"
#include "tcp/packet_index.hpp"

namespace tcpscope::dissect {

namespace {
constexpr uint8_t kSynFlag = 0x02;

/// How far `seq` lies after `from`, in sequence space (negative: before).
int64_t distance(uint32_t from, uint32_t seq) {
    return static_cast<int32_t>(seq - from);
}
}  // namespace

std::vector<uint8_t> FollowedStream::bytesOf(bool server) const {
    std::vector<uint8_t> bytes;
    for (const StreamChunk& chunk : chunks) {
        if (chunk.fromServer == server) {
            bytes.insert(bytes.end(), chunk.bytes.begin(), chunk.bytes.end());
        }
    }
    return bytes;
}

void StreamReassembler::append(bool fromServer, uint32_t frame, std::span<const uint8_t> bytes, uint64_t missing) {
    if (bytes.empty() && missing == 0) {
        return;
    }
    (fromServer ? stream_.serverBytes : stream_.clientBytes) += bytes.size();
    (fromServer ? stream_.serverMissing : stream_.clientMissing) += missing;
    // The other side's waiting segments are given before this side speaks: the conversation moved on.
    flushWaiting(!fromServer);
    if (missing == 0 && !stream_.chunks.empty() && stream_.chunks.back().fromServer == fromServer &&
        stream_.chunks.back().missingBytes == 0) {
        stream_.chunks.back().bytes.insert(stream_.chunks.back().bytes.end(), bytes.begin(), bytes.end());
        return;
    }
    stream_.chunks.push_back(StreamChunk{fromServer, frame, {bytes.begin(), bytes.end()}, missing});
}

void StreamReassembler::deliver(bool fromServer, uint32_t frame, uint32_t seq, uint32_t payloadLength,
                                std::span<const uint8_t> bytes) {
    Direction& direction = directions_[fromServer ? 1 : 0];
    const int64_t skip = -distance(direction.nextSeq, seq);  // bytes already given (0 when in order)
    if (skip >= payloadLength) {
        return;  // a retransmission of bytes already given
    }
    const auto skipped = static_cast<uint32_t>(std::max<int64_t>(skip, 0));
    if (skipped < bytes.size()) {
        append(fromServer, frame, bytes.subspan(skipped), 0);
    }
    // Bytes the snapshot length cut off are missing too.
    const uint32_t uncaptured = payloadLength - std::max<uint32_t>(skipped, static_cast<uint32_t>(bytes.size()));
    if (skipped <= bytes.size() && uncaptured > 0) {
        append(fromServer, frame, {}, uncaptured);
    }
    direction.nextSeq = seq + payloadLength;
}

void StreamReassembler::drain(bool fromServer) {
    Direction& direction = directions_[fromServer ? 1 : 0];
    for (bool progressed = true; progressed;) {
        progressed = false;
        for (size_t i = 0; i < direction.waiting.size(); ++i) {
            if (distance(direction.nextSeq, direction.waiting[i].seq) <= 0) {
                Pending segment = std::move(direction.waiting[i]);
                direction.waiting.erase(direction.waiting.begin() + static_cast<std::ptrdiff_t>(i));
                deliver(fromServer, segment.frame, segment.seq, segment.payloadLength, segment.bytes);
                progressed = true;
                break;
            }
        }
    }
}

void StreamReassembler::flushWaiting(bool fromServer) {
    Direction& direction = directions_[fromServer ? 1 : 0];
    while (!direction.waiting.empty()) {
        const auto lowest = std::min_element(
            direction.waiting.begin(), direction.waiting.end(), [&](const Pending& a, const Pending& b) {
                return distance(direction.nextSeq, a.seq) < distance(direction.nextSeq, b.seq);
            });
        const int64_t hole = distance(direction.nextSeq, lowest->seq);
        if (hole > 0) {
            const uint32_t frame = lowest->frame;
            direction.nextSeq = lowest->seq;
            // Waiting segments of this side are what is being flushed: no recursion into them.
            std::vector<Pending> keep = std::move(direction.waiting);
            direction.waiting.clear();
            append(fromServer, frame, {}, static_cast<uint64_t>(hole));
            direction.waiting = std::move(keep);
        }
        drain(fromServer);
    }
}

void StreamReassembler::add(uint32_t frame, bool fromServer, uint32_t seq, uint8_t tcpFlags, uint32_t payloadLength,
                            std::span<const uint8_t> payload) {
    Direction& direction = directions_[fromServer ? 1 : 0];
    if ((tcpFlags & kSynFlag) != 0) {
        direction.started = true;
        direction.nextSeq = seq + 1;
        seq += 1;  // data on a SYN (TCP Fast Open) follows the SYN's own sequence number
    } else if (!direction.started) {
        direction.started = true;
        direction.nextSeq = seq;
    }
    if (payloadLength == 0) {
        return;
    }
    if (distance(direction.nextSeq, seq) > 0) {
        direction.waiting.push_back(Pending{frame, seq, payloadLength, {payload.begin(), payload.end()}});
        return;
    }
    deliver(fromServer, frame, seq, payloadLength, payload);
    drain(fromServer);
}

FollowedStream StreamReassembler::finish() {
    flushWaiting(false);
    flushWaiting(true);
    return std::move(stream_);
}

FollowedStream followTcpStream(const PacketIndex& packets, uint32_t connection, FrameBytesReader& reader) {
    StreamReassembler reassembler;
    std::vector<std::string> problems;
    for (size_t position = 0; position < packets.size(); ++position) {
        const IndexedPacket packet = packets.at(position);
        if (packet.connection != connection || packet.fileIndex != 0) {
            continue;
        }
        std::span<const uint8_t> payload;
        std::optional<FrameBytes> frame;
        TcpSegment segment;
        if (packet.payloadLength > 0) {
            frame = reader.read(packet.recordOffset);
            if (!frame) {
                problems.push_back(fmt::format("frame {}: {}", packet.frame, reader.problem()));
            } else {
                RawPacket raw;
                raw.data = frame->data.data();
                raw.capturedLength = static_cast<uint32_t>(frame->data.size());
                raw.originalLength = frame->originalLength;
                raw.linkType = frame->linkType;
                if (decodePacket(raw, segment) == DecodeStatus::Tcp) {
                    payload =
                        std::span<const uint8_t>(frame->data).subspan(segment.payloadOffset, segment.payloadCaptured);
                }
            }
        }
        reassembler.add(packet.frame, packet.fromServer, packet.seq, packet.tcpFlags, packet.payloadLength, payload);
    }
    FollowedStream stream = reassembler.finish();
    stream.problems = std::move(problems);
    return stream;
}

}  // namespace tcpscope::dissect
