#pragma once
// Follow TCP Stream: a connection's payload in order, each direction reassembled by sequence
// number, as Wireshark's dialog and `tshark -z follow,tcp` show it.
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace tcpscope {
class PacketIndex;
}

namespace tcpscope::dissect {

class FrameBytesReader;

/// A run of one direction's payload, or a gap: bytes the capture did not see.
struct StreamChunk {
    bool fromServer = false;
    uint32_t frame = 0;          ///< the frame that brought its first byte
    std::vector<uint8_t> bytes;  ///< the payload (empty for a gap)
    uint64_t missingBytes = 0;   ///< a gap: bytes missing in the capture ("[N bytes missing in capture]")
};

/// A whole conversation: its chunks in the order they became readable, and each direction's totals.
struct FollowedStream {
    std::vector<StreamChunk> chunks;
    uint64_t clientBytes = 0;  ///< payload bytes the client sent (each once)
    uint64_t serverBytes = 0;
    uint64_t clientMissing = 0;  ///< bytes of the client's the capture lacks
    uint64_t serverMissing = 0;
    std::vector<std::string> problems;  ///< frames that could not be read again, in frame order

    /// One direction's payload bytes, in sequence order (gaps left out).
    [[nodiscard]] std::vector<uint8_t> bytesOf(bool server) const;
};

/// Puts the segments of one connection in sequence order, each byte once: a retransmission adds
/// nothing, an overlap only its new bytes, a segment after a hole waits for the hole to fill and
/// is given with a gap when the other side speaks or the conversation ends.
class StreamReassembler {
public:
    /// One segment, in frame order: `payload` is the captured part of its `payloadLength` bytes.
    void add(uint32_t frame, bool fromServer, uint32_t seq, uint8_t tcpFlags, uint32_t payloadLength,
             std::span<const uint8_t> payload);
    /// Gives what still waits behind holes, and the result.
    FollowedStream finish();

private:
    struct Pending {
        uint32_t frame = 0;
        uint32_t seq = 0;
        uint32_t payloadLength = 0;
        std::vector<uint8_t> bytes;
    };
    struct Direction {
        bool started = false;
        uint32_t nextSeq = 0;
        std::vector<Pending> waiting;  ///< segments after a hole, by arrival
    };

    void deliver(bool fromServer, uint32_t frame, uint32_t seq, uint32_t payloadLength, std::span<const uint8_t> bytes);
    void drain(bool fromServer);
    void flushWaiting(bool fromServer);
    void append(bool fromServer, uint32_t frame, std::span<const uint8_t> bytes, uint64_t missing);

    Direction directions_[2];
    FollowedStream stream_;
};

/// Follows connection `connection` of `packets`, reading each payload again through `reader`
/// (the packets of the first input file only: the reader reads one file).
FollowedStream followTcpStream(const PacketIndex& packets, uint32_t connection, FrameBytesReader& reader);

}  // namespace tcpscope::dissect
