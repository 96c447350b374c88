// Fuzz target for the analysis of several capture points: the same frames seen at two points,
// some at one point only, the second point's clock shifted and drifting, so that segment matching,
// the pair clock fit, the chained clocks, the choice of a vantage point per connection and the merged
// analysis on the reference clock all run on what they were not written for.
//
// Input: a byte choosing the link type, a byte of the second point's clock offset (signed, in units
// of 16 ms), a byte of its drift (signed, in units of 10 ppm); then frames, each a 2-byte big-endian
// length, a byte of milliseconds since the frame before, a byte saying where it was seen (bit 0: not
// at the first point, bit 1: not at the second; bits 2-7: milliseconds the second point saw it late),
// and the frame's bytes. Each point's frames are written as a classic pcap file into memory
// (memfd) and read back by path, as analyzePoints reads files.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "capture/raw_packet.hpp"
#include "points/point_analysis.hpp"
#include "points/points_report.hpp"

namespace {

constexpr std::array<uint32_t, 8> kLinkTypes{
    tcpscope::linktype::kEthernet, tcpscope::linktype::kRaw,  tcpscope::linktype::kLinuxSll,
    tcpscope::linktype::kLinuxSll2, tcpscope::linktype::kNull, tcpscope::linktype::kLoop,
    tcpscope::linktype::kIpv4,     tcpscope::linktype::kIpv6};
constexpr size_t kHeaderBytes = 3;       // link type, clock offset, drift
constexpr size_t kFrameHeaderBytes = 4;  // length (2), milliseconds since the frame before (1), where (1)
constexpr int64_t kStartNs = 1'700'000'000'000'000'000;
constexpr int64_t kNsPerMs = 1'000'000;
constexpr uint32_t kNanosecondPcapMagic = 0xa1b23c4d;

void append32(std::vector<uint8_t>& out, uint32_t value) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
    out.insert(out.end(), bytes, bytes + sizeof value);
}

void append16(std::vector<uint8_t>& out, uint16_t value) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
    out.insert(out.end(), bytes, bytes + sizeof value);
}

// A classic pcap file with nanosecond timestamps, in host byte order.
struct PcapImage {
    std::vector<uint8_t> bytes;

    explicit PcapImage(uint32_t linkType) {
        append32(bytes, kNanosecondPcapMagic);
        append16(bytes, 2);
        append16(bytes, 4);
        append32(bytes, 0);  // this zone
        append32(bytes, 0);  // sigfigs
        append32(bytes, 65535);
        append32(bytes, linkType);
    }

    void add(int64_t tsNs, const uint8_t* frame, uint32_t length) {
        append32(bytes, static_cast<uint32_t>(tsNs / 1'000'000'000));
        append32(bytes, static_cast<uint32_t>(tsNs % 1'000'000'000));
        append32(bytes, length);
        append32(bytes, length);
        bytes.insert(bytes.end(), frame, frame + length);
    }
};

// An in-memory file holding `image`, open as long as the object lives, and its path.
class MemoryFile {
public:
    explicit MemoryFile(const PcapImage& image) : fd_(memfd_create("point", 0)) {
        if (fd_ >= 0 && write(fd_, image.bytes.data(), image.bytes.size()) ==
                            static_cast<ssize_t>(image.bytes.size())) {
            path_ = "/proc/self/fd/" + std::to_string(fd_);
        }
    }
    ~MemoryFile() {
        if (fd_ >= 0) {
            close(fd_);
        }
    }
    MemoryFile(const MemoryFile&) = delete;
    MemoryFile& operator=(const MemoryFile&) = delete;

    [[nodiscard]] const std::string& path() const { return path_; }

private:
    int fd_;
    std::string path_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < kHeaderBytes) {
        return 0;
    }
    const uint32_t linkType = kLinkTypes[data[0] % kLinkTypes.size()];
    const int64_t offsetNs = int64_t{static_cast<int8_t>(data[1])} * 16 * kNsPerMs;
    const int64_t driftPpm = int64_t{static_cast<int8_t>(data[2])} * 10;
    PcapImage first(linkType);
    PcapImage second(linkType);
    int64_t tsNs = kStartNs;
    int64_t secondLastNs = 0;
    size_t offset = kHeaderBytes;
    while (size - offset >= kFrameHeaderBytes) {
        const auto length = static_cast<uint32_t>(std::min<size_t>(
            (size_t{data[offset]} << 8) | data[offset + 1], size - offset - kFrameHeaderBytes));
        tsNs += int64_t{data[offset + 2]} * kNsPerMs;
        const uint8_t where = data[offset + 3];
        const uint8_t* frame = data + offset + kFrameHeaderBytes;
        if ((where & 1) == 0) {
            first.add(tsNs, frame, length);
        }
        if ((where & 2) == 0) {
            const int64_t sinceStart = tsNs - kStartNs;
            const int64_t late = int64_t{where >> 2} * kNsPerMs;
            // A file is in time order: a frame seen late cannot overtake the one before it.
            secondLastNs = std::max(secondLastNs, kStartNs + offsetNs + sinceStart + sinceStart / 1'000'000 * driftPpm + late);
            second.add(secondLastNs, frame, length);
        }
        offset += kFrameHeaderBytes + length;
    }
    const MemoryFile firstFile(first);
    const MemoryFile secondFile(second);
    if (firstFile.path().empty() || secondFile.path().empty()) {
        std::fprintf(stderr, "fuzz_capture_points: cannot make an in-memory file\n");
        std::abort();
    }
    const tcpscope::AnalysisOptions options;
    const tcpscope::PointsAnalysis result =
        tcpscope::analyzePoints({{"first", {firstFile.path()}}, {"second", {secondFile.path()}}}, options);
    size_t described = tcpscope::pointsJson(result.summary).dump().size();
    for (const tcpscope::Finding& finding : result.analysis.findings) {
        described += finding.summary.size() + finding.evidence.dump().size();
    }
    return described == SIZE_MAX ? 1 : 0;
}
