#pragma once
// A capture written by the benchmark generator into a temporary file, removed afterwards.
#include <cstdint>
#include <filesystem>
#include <string>

#include "bench/workload.hpp"

namespace tcpscope::test {

class GeneratedCapture {
public:
    explicit GeneratedCapture(const bench::WorkloadOptions& options, const std::string& name = "capture");
    ~GeneratedCapture();
    GeneratedCapture(const GeneratedCapture&) = delete;
    GeneratedCapture& operator=(const GeneratedCapture&) = delete;

    [[nodiscard]] std::string path() const { return path_.string(); }
    [[nodiscard]] const bench::GeneratorStats& stats() const { return stats_; }
    /// FNV-1a of the file's bytes.
    [[nodiscard]] uint64_t hash() const;

private:
    std::filesystem::path path_;
    bench::GeneratorStats stats_;
};

/// Options for a small capture of `workload`.
bench::WorkloadOptions smallWorkload(bench::Workload workload, uint64_t packets, uint64_t seed = 1);

}  // namespace tcpscope::test
