#pragma once
#include <ostream>

#include "align/strace_alignment.hpp"

namespace tcpscope {

/// The strace part of the text report: per log, its format, processes, calls, clock fit and the
/// sockets tied to connections.
void writeSyscallsText(std::ostream& out, const StraceAlignment& alignment);

}  // namespace tcpscope
