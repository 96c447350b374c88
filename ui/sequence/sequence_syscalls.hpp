#pragma once
#include <vector>

#include "align/strace_alignment.hpp"
#include "present/sequence_diagram.hpp"
#include "sequence/sequence_layout.hpp"

namespace tcpscope::ui {

/// diagramSyscalls() for the sequence view: the same calls, labels and segments, with their colours.
std::vector<SequenceSyscall> sequenceSyscalls(const StraceAlignment& alignment, const SequenceDiagram& diagram);

}  // namespace tcpscope::ui
