#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bench/segment_scheduler.hpp"

namespace tcpscope::bench {

/// The benchmark's captures.
enum class Workload : uint8_t {
    W1,  ///< ~10 M small packets, ~1 M short connections interleaved, every trouble mixed in
    W2,  ///< ~3 M packets, 2 M full-sized segments (3 GB) over 2,000 long connections
    W3,  ///< adversarial, ~10.4 M packets: SYN scan of 5 M tuples, one tuple reused 5,000 times, zero-window storms
};

/// What to generate. Zero means "the workload's full size" or "in proportion to `packets`".
struct WorkloadOptions {
    Workload workload = Workload::W1;
    uint64_t packets = 0;      ///< packets to write (exactly, unless the workload runs out first)
    uint64_t connections = 0;  ///< W1: connections; W2: long connections; W3: scanned tuples
    uint64_t seed = 1;         ///< same seed, same bytes
    uint32_t snaplen = 65535;  ///< longer frames are cut (their IP lengths stay real)
};

/// "w1", "w2", "w3" (any case); nullopt for another name.
std::optional<Workload> parseWorkload(std::string_view name);
std::string_view workloadName(Workload workload);
/// Packets of the full-sized workload.
uint64_t fullPackets(Workload workload);
/// The connection count `options` ends up with when it gives none.
uint64_t effectiveConnections(const WorkloadOptions& options);

/// Writes the workload to `path` as a nanosecond pcap, streaming. Deterministic: the same options
/// give the same bytes. Throws GeneratorError if the file cannot be written.
GeneratorStats generateCapture(const std::string& path, const WorkloadOptions& options);

}  // namespace tcpscope::bench
