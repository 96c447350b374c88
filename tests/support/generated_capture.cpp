#include "support/generated_capture.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <vector>

namespace tcpscope::test {

namespace {
std::filesystem::path uniquePath(const std::string& name) {
    static std::atomic<int> counter{0};
    return std::filesystem::temp_directory_path() /
           ("tcpscope-bench-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + name +
            ".pcap");
}
}  // namespace

GeneratedCapture::GeneratedCapture(const bench::WorkloadOptions& options, const std::string& name)
    : path_(uniquePath(name)), stats_(bench::generateCapture(path_.string(), options)) {}

GeneratedCapture::~GeneratedCapture() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
}

uint64_t GeneratedCapture::hash() const {
    std::ifstream file(path_, std::ios::binary);
    std::vector<char> block(1 << 20);
    uint64_t hash = 0xcbf29ce484222325ULL;
    while (file) {
        file.read(block.data(), static_cast<std::streamsize>(block.size()));
        const std::streamsize got = file.gcount();
        for (std::streamsize i = 0; i < got; ++i) {
            hash = (hash ^ static_cast<uint8_t>(block[static_cast<size_t>(i)])) * 0x100000001b3ULL;
        }
    }
    return hash;
}

bench::WorkloadOptions smallWorkload(bench::Workload workload, uint64_t packets, uint64_t seed) {
    bench::WorkloadOptions options;
    options.workload = workload;
    options.packets = packets;
    options.seed = seed;
    return options;
}

}  // namespace tcpscope::test
