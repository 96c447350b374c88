#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tcpscope {

/// One capture point's sighting of a packet (several capture points): the point's name and when
/// it saw the packet, on the reference clock.
struct PacketSighting {
    std::string point;
    int64_t tsNs = 0;
};

/// The sightings of frame `frame` of the analysis; an empty function when there is one capture point.
using PacketSightingsFn = std::function<std::vector<PacketSighting>(uint32_t frame)>;

/// Whether the packet at `position` of the packet index is listed (a display filter); an empty
/// function lists every packet.
using PacketSelectionFn = std::function<bool(size_t position)>;

}  // namespace tcpscope
