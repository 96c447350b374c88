#pragma once
#include "bench/pcap_file_writer.hpp"
#include "bench/planned_segment.hpp"

namespace tcpscope::bench {

/// Header bytes of a planned segment on the wire (TCP options included), without the payload.
uint32_t headerBytes(const PlannedSegment& segment);

/// Writes `segment` as one Ethernet/IPv4/TCP record: real IP total length and original length,
/// bytes cut at the writer's snapshot length, payload from a fixed pattern. The IPv4 header
/// checksum is valid; the TCP checksum is left zero (tshark does not verify it by default).
void writeFrame(const PlannedSegment& segment, PcapFileWriter& writer);

}  // namespace tcpscope::bench
