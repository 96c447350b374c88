#pragma once
#include <string>

#include "engine/capture_loader.hpp"

namespace tcpscope {

/// How every summary (text report, incident report) says that a file ends inside a record:
/// "FILE ends 37 bytes into the record at byte 12345: the capture was cut short there, the partial
/// packet is left out". Empty when the file is whole.
std::string cutShortText(const InputSummary& input);

}  // namespace tcpscope
