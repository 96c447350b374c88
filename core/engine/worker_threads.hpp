#pragma once

namespace tcpscope {

/// True if work may be split over a second thread: the machine has a second core and
/// TCPSCOPE_THREADS is not 1 (set it to measure what the second thread gains). The loader's
/// reading thread and the JSON report's flow formatting both ask here.
bool secondThreadAllowed();

}  // namespace tcpscope
