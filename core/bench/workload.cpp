#include "bench/workload.hpp"

#include <algorithm>
#include <cctype>

#include "bench/pcap_file_writer.hpp"
#include "bench/workload_sources.hpp"

namespace tcpscope::bench {

namespace {
constexpr uint64_t kW1Packets = 10'000'000;
constexpr uint64_t kW2Packets = 3'000'000;
constexpr uint64_t kW3Packets = 10'400'000;
}  // namespace

std::optional<Workload> parseWorkload(std::string_view name) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "w1") {
        return Workload::W1;
    }
    if (lower == "w2") {
        return Workload::W2;
    }
    if (lower == "w3") {
        return Workload::W3;
    }
    return std::nullopt;
}

std::string_view workloadName(Workload workload) {
    switch (workload) {
        case Workload::W1:
            return "w1";
        case Workload::W2:
            return "w2";
        case Workload::W3:
            return "w3";
    }
    return "?";
}

uint64_t fullPackets(Workload workload) {
    switch (workload) {
        case Workload::W1:
            return kW1Packets;
        case Workload::W2:
            return kW2Packets;
        case Workload::W3:
            return kW3Packets;
    }
    return 0;
}

uint64_t effectiveConnections(const WorkloadOptions& options) {
    if (options.connections > 0) {
        return options.connections;
    }
    const uint64_t packets = options.packets > 0 ? options.packets : fullPackets(options.workload);
    switch (options.workload) {
        case Workload::W1:
            return std::max<uint64_t>(packets / 10, 1);  // 1 M for 10 M packets
        case Workload::W2:
            return std::clamp<uint64_t>(packets / 1500, 1, 2000);
        case Workload::W3:
            return std::max<uint64_t>(packets * 48 / 100, 1);  // scanned tuples: 5 M for 10.4 M packets
    }
    return 1;
}

GeneratorStats generateCapture(const std::string& path, const WorkloadOptions& options) {
    WorkloadOptions resolved = options;
    if (resolved.packets == 0) {
        resolved.packets = fullPackets(options.workload);
    }
    resolved.connections = effectiveConnections(resolved);
    std::unique_ptr<ConversationSource> source;
    switch (resolved.workload) {
        case Workload::W1:
            source = makeShortConnectionWorkload(resolved);
            break;
        case Workload::W2:
            source = makeBulkTransferWorkload(resolved);
            break;
        case Workload::W3:
            source = makeAdversarialWorkload(resolved);
            break;
    }
    PcapFileWriter writer(path, resolved.snaplen);
    GeneratorStats stats = runSchedule(*source, writer, resolved.packets);
    writer.finish();
    stats.bytes = writer.bytesWritten();
    return stats;
}

}  // namespace tcpscope::bench
