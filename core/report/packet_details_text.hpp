#pragma once
// `tcpscope-cli packets -V` and `follow`: a frame's details and a connection's payload as text.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "dissect/dissection.hpp"
#include "dissect/tcp_stream_follow.hpp"
#include "report/packet_sightings.hpp"

namespace tcpscope {

/// A frame's details as `tshark -V` prints them: "Label: value", four spaces per level.
void writeDissectionText(std::ostream& out, const std::vector<dissect::DissectionNode>& layers);

/// The details of every TCP packet of the first input file (of one flow if given, and those
/// `selected` keeps), each read again from the file, then its bytes as `tshark -x` shows them.
void writePacketDetailsText(std::ostream& out, const CaptureAnalysis& analysis, std::optional<uint32_t> flow,
                            const PacketSelectionFn& selected = {});

/// How `follow` shows the payload, as tshark's `-z follow,tcp,FORMAT`.
enum class FollowFormat { Ascii, Hex, Raw };

/// Connection `stream`'s payload as `tshark -q -z follow,tcp,FORMAT,STREAM` prints it: the two
/// nodes, then each run of bytes (the server's indented by a tab), gaps as "[N bytes missing in capture]".
void writeFollowText(std::ostream& out, const dissect::FollowedStream& followed, uint32_t stream,
                     const std::string& client, const std::string& server, FollowFormat format);

}  // namespace tcpscope
