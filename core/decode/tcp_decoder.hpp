#pragma once
#include <cstdint>

#include "decode/decoded_packet.hpp"
#include "decode/frame_view.hpp"
#include "decode/ip_layer.hpp"

namespace tcpscope {

/// Decodes the TCP header that `ip` points at. Returns Tcp and fills all of `segment`; Malformed when
/// the IP length leaves no room for the TCP header or the data offset is wrong; Truncated when the
/// 20 fixed header bytes are not captured (options cut by the capture still give a segment, with
/// options.truncated set). `segment` is left untouched unless the result is Tcp.
/// Payload length = IP-given transport length - TCP header length. Never reads past the captured bytes.
DecodeStatus decodeTcp(const FrameView& frame, const IpLayer& ip, TcpSegment& segment);

}  // namespace tcpscope
