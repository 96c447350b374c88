#include "points/capture_host.hpp"

#include <absl/container/flat_hash_map.h>

#include <memory>

#include "capture/capture_reader.hpp"
#include "decode/packet_decoder.hpp"
#include "tcp/flow_key.hpp"

namespace tcpscope {
namespace {

// The first handshake of a 4-tuple as the capture saw it.
struct HandshakeTimes {
    IpAddress client;
    IpAddress server;
    int64_t synNs = -1;
    int64_t synAckNs = -1;
    int64_t ackNs = -1;
};

struct AddressCounts {
    uint64_t packetsSent = 0;
    uint64_t handshakesLocal = 0;
};

void noteHandshake(absl::flat_hash_map<FlowKey, HandshakeTimes>& handshakes, const TcpSegment& segment, int64_t tsNs) {
    bool sourceIsLow = true;
    const FlowKey key = FlowKey::fromSegment(segment.source, segment.destination, sourceIsLow);
    const bool syn = (segment.flags & tcpflag::kSyn) != 0;
    const bool ack = (segment.flags & tcpflag::kAck) != 0;
    if (syn && !ack) {
        HandshakeTimes& times = handshakes[key];
        if (times.synNs < 0) {
            times = {segment.source.address, segment.destination.address, tsNs, -1, -1};
        }
        return;
    }
    const auto found = handshakes.find(key);
    if (found == handshakes.end()) {
        return;
    }
    HandshakeTimes& times = found->second;
    if (syn && ack && times.synAckNs < 0 && segment.source.address == times.server) {
        times.synAckNs = tsNs;
    } else if (!syn && ack && times.synAckNs >= 0 && times.ackNs < 0 && segment.source.address == times.client) {
        times.ackNs = tsNs;
    }
}

}  // namespace

std::optional<CaptureHost> guessCaptureHost(const std::vector<std::string>& files, uint64_t maxFrames) {
    absl::flat_hash_map<IpAddress, AddressCounts> counts;
    absl::flat_hash_map<FlowKey, HandshakeTimes> handshakes;
    uint64_t frames = 0;
    for (const std::string& path : files) {
        const std::unique_ptr<CaptureReader> reader = CaptureReader::open(path);
        RawPacket packet;
        TcpSegment segment;
        while (frames < maxFrames && reader->next(packet)) {
            ++frames;
            if (decodePacket(packet, segment) != DecodeStatus::Tcp) {
                continue;
            }
            ++counts[segment.source.address].packetsSent;
            noteHandshake(handshakes, segment, packet.tsNs);
        }
    }
    bool anyHandshake = false;
    for (const auto& [key, times] : handshakes) {
        if (times.ackNs < 0) {
            continue;
        }
        // The side beside the capture answers at once; the other's answer comes a round trip later.
        const bool serverLocal = times.synAckNs - times.synNs < times.ackNs - times.synAckNs;
        ++counts[serverLocal ? times.server : times.client].handshakesLocal;
        anyHandshake = true;
    }
    const IpAddress* best = nullptr;
    const AddressCounts* bestCounts = nullptr;
    for (const auto& [address, count] : counts) {
        const bool better = bestCounts == nullptr || count.handshakesLocal > bestCounts->handshakesLocal ||
                            (count.handshakesLocal == bestCounts->handshakesLocal &&
                             (count.packetsSent > bestCounts->packetsSent ||
                              (count.packetsSent == bestCounts->packetsSent && address < *best)));
        if (better) {
            best = &address;
            bestCounts = &count;
        }
    }
    if (best == nullptr) {
        return std::nullopt;
    }
    return CaptureHost{*best, anyHandshake && bestCounts->handshakesLocal > 0};
}

}  // namespace tcpscope
