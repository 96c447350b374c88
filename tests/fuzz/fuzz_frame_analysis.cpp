// Fuzz target for the analysis of frames: the decoders (link layers, IPv4, IPv6 and its extension
// headers, TCP and its options, ICMP "too big" messages), connection tracking, and every detector
// with its findings described. Input: a byte choosing the link type, then frames, each a 2-byte
// big-endian length, a byte of milliseconds since the frame before (so that timers and stalls
// happen), and the frame's bytes. The capture readers have their own target (fuzz_capture_reader).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "detect/detector_set.hpp"
#include "detect/finding_log.hpp"
#include "engine/analysis_engine.hpp"

namespace {

constexpr std::array<uint32_t, 8> kLinkTypes{
    tcpscope::linktype::kEthernet, tcpscope::linktype::kRaw,  tcpscope::linktype::kLinuxSll,
    tcpscope::linktype::kLinuxSll2, tcpscope::linktype::kNull, tcpscope::linktype::kLoop,
    tcpscope::linktype::kIpv4,     tcpscope::linktype::kIpv6};
constexpr size_t kFrameHeaderBytes = 3;  // length (2), milliseconds since the frame before (1)
constexpr int64_t kStartNs = 1'700'000'000'000'000'000;
constexpr int64_t kNsPerMs = 1'000'000;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) {
        return 0;
    }
    tcpscope::AnalysisEngine engine;
    tcpscope::FindingLog log;
    const tcpscope::DetectorOptions options;
    tcpscope::DetectorSet detectors(engine, options, log);
    const uint32_t linkType = kLinkTypes[data[0] % kLinkTypes.size()];
    int64_t tsNs = kStartNs;
    size_t offset = 1;
    while (size - offset >= kFrameHeaderBytes) {
        const size_t length = std::min<size_t>((size_t{data[offset]} << 8) | data[offset + 1],
                                               size - offset - kFrameHeaderBytes);
        tsNs += int64_t{data[offset + 2]} * kNsPerMs;
        tcpscope::RawPacket packet;
        packet.tsNs = tsNs;
        packet.linkType = linkType;
        packet.data = data + offset + kFrameHeaderBytes;
        packet.capturedLength = static_cast<uint32_t>(length);
        packet.originalLength = static_cast<uint32_t>(length);
        engine.push(packet, 0);
        offset += kFrameHeaderBytes + length;
    }
    engine.finish();
    size_t described = 0;
    for (const tcpscope::Finding& finding : log.all()) {
        described += finding.summary.size() + finding.evidence.dump().size();
    }
    return described == SIZE_MAX ? 1 : 0;
}
