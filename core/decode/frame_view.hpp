#pragma once
// The bytes of one frame as the layer decoders see them.
#include <cstdint>

namespace tcpscope {

/// A captured frame: `capturedLength` bytes at `data`, of a frame `wireLength` bytes long on the wire.
struct FrameView {
    const uint8_t* data = nullptr;
    uint32_t capturedLength = 0;  ///< bytes present at `data`; decoders never read past them
    uint32_t wireLength = 0;      ///< original length, at least capturedLength; sizes TSO / BIG TCP packets
};

}  // namespace tcpscope
