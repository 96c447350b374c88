#pragma once
#include <cstdint>

#include "capture/capture_reader.hpp"
#include "engine/capture_loader.hpp"

namespace tcpscope {

/// Counts one frame read from an input in its summary: the frames, and its link type the first time.
void countFrame(InputSummary& summary, uint32_t linkType);
/// Writes what `reader` says of its input once read to the end into `summary`: the format, the
/// bytes read, the warnings, the error that ended it, the section comments.
void closeSummary(InputSummary& summary, const CaptureReader& reader);

}  // namespace tcpscope
