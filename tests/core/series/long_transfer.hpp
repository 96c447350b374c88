#pragma once
#include <cstdint>
#include <filesystem>

#include "analysis/capture_analysis.hpp"
#include "bench/workload.hpp"

namespace tcpscope::test {

/// The analysis of one long transfer of `packets` packets (the benchmark's W2 workload with one
/// connection, frames cut to 96 bytes), written to a temporary file that is removed afterwards.
inline CaptureAnalysis analyzeLongTransfer(uint64_t packets, const char* fileName) {
    const std::filesystem::path path = std::filesystem::temp_directory_path() / fileName;
    bench::WorkloadOptions options;
    options.workload = bench::Workload::W2;
    options.packets = packets;
    options.connections = 1;
    options.snaplen = 96;
    bench::generateCapture(path.string(), options);
    CaptureAnalysis analysis = analyzeCaptures({path.string()}, {});
    std::filesystem::remove(path);
    return analysis;
}

}  // namespace tcpscope::test
