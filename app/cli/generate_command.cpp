// generate: the benchmark's synthetic captures (core/bench/).
#include <memory>

#include <fmt/format.h>

#include "bench/generator_error.hpp"
#include "bench/workload.hpp"
#include "commands.hpp"

namespace tcpscope::cli {
namespace {

struct GenerateOptions {
    std::string workload;
    bench::WorkloadOptions workloadOptions;
    std::string out;
};

int runGenerate(GenerateOptions& options) {
    bench::WorkloadOptions& w = options.workloadOptions;
    w.workload = *bench::parseWorkload(options.workload);
    bench::GeneratorStats stats;
    try {
        stats = bench::generateCapture(options.out, w);
    } catch (const bench::GeneratorError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return kExitUnreadable;
    }
    fmt::print("generated {}\n  workload     {} (seed {})\n  packets      {}\n  connections  {}\n"
               "  bytes        {}\n  capture time {:.3f} s\n  peak open    {} conversations\n",
               options.out, bench::workloadName(w.workload), w.seed, stats.packets, stats.connections, stats.bytes,
               static_cast<double>(stats.lastTsNs - stats.firstTsNs) / 1e9, stats.peakConversations);
    return kExitAnalysed;
}

}  // namespace

Subcommand addGenerateCommand(CLI::App& app) {
    auto options = std::make_shared<GenerateOptions>();
    CLI::App* generate = app.add_subcommand(
        "generate", "write a deterministic synthetic capture for the benchmark (workloads w1, w2, w3)");
    generate->add_option("--workload", options->workload,
                         "w1: 10 M small packets over 1 M short connections with every trouble mixed in; "
                         "w2: 3 M packets, 3 GB of full-sized segments over 2,000 long connections; "
                         "w3: SYN scan of 5 M tuples, one tuple reused 5,000 times, zero-window storms")
        ->required()
        ->check(CLI::IsMember({"w1", "w2", "w3"}, CLI::ignore_case));
    bench::WorkloadOptions& w = options->workloadOptions;
    generate->add_option("--packets", w.packets, "packets to write (default: the full workload)")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 32));
    generate->add_option("--connections", w.connections,
                         "w1: connections; w2: long connections; w3: scanned tuples (default: in proportion)")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 26));
    generate->add_option("--seed", w.seed, "same seed, same bytes")->capture_default_str();
    generate->add_option("--snaplen", w.snaplen, "cut frames longer than this (IP lengths stay real)")
        ->capture_default_str()
        ->check(CLI::Range(64u, 262144u));
    generate->add_option("--out", options->out, "the pcap file to write")->required();
    return {generate, [options] { return runGenerate(*options); }};
}

}  // namespace tcpscope::cli
