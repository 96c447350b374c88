#include "recorded/call_block.hpp"

#include <cstring>

#include <fmt/format.h>

#include "text/valid_utf8.hpp"

namespace tcpscope {
namespace {

constexpr uint16_t kBlockVersion = 1;
constexpr size_t kHeaderBytes = 8;  // kind, version, count
constexpr uint16_t kAfInet = 2;
constexpr uint16_t kAfInet6 = 10;
constexpr uint16_t kHasSocket = 1;
constexpr uint16_t kHasOption = 2;

// The file's integers are little-endian, whatever the writer's machine.
template <typename T>
T little(std::span<const uint8_t> bytes, size_t offset) {
    uint64_t value = 0;
    for (size_t i = 0; i < sizeof(T); ++i) {
        value |= static_cast<uint64_t>(bytes[offset + i]) << (8 * i);
    }
    return static_cast<T>(value);
}

template <typename T>
void putLittle(std::vector<uint8_t>& out, T value) {
    const auto bits = static_cast<uint64_t>(value);
    for (size_t i = 0; i < sizeof(T); ++i) {
        out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
    }
}

std::vector<uint8_t> header(RecordBlockKind kind, uint32_t count) {
    std::vector<uint8_t> out;
    putLittle(out, static_cast<uint16_t>(kind));
    putLittle(out, kBlockVersion);
    putLittle(out, count);
    return out;
}

Endpoint endpointOf(std::span<const uint8_t> bytes, size_t offset, uint16_t family, uint16_t port) {
    Endpoint endpoint;
    endpoint.address = family == kAfInet6 ? IpAddress::fromV6(bytes.data() + offset) : IpAddress::fromV4(bytes.data() + offset);
    endpoint.port = port;
    return endpoint;
}

}  // namespace

std::vector<uint8_t> encodeClockBlock(const ClockSample& sample) {
    std::vector<uint8_t> out = header(RecordBlockKind::Clock, 1);
    putLittle(out, sample.monotonicNs);
    putLittle(out, sample.realtimeNs);
    return out;
}

std::vector<uint8_t> encodeSummaryBlock(uint64_t recordedEvents, uint64_t lostEvents) {
    std::vector<uint8_t> out = header(RecordBlockKind::Summary, 0);
    putLittle(out, recordedEvents);
    putLittle(out, lostEvents);
    return out;
}

std::vector<uint8_t> encodeCallsBlock(std::span<const uint8_t> events, uint32_t count) {
    std::vector<uint8_t> out = header(RecordBlockKind::Calls, count);
    out.insert(out.end(), events.begin(), events.begin() + static_cast<ptrdiff_t>(count * kCallRecordBytes));
    return out;
}

RecordedCall decodeCall(std::span<const uint8_t> bytes) {
    RecordedCall call;
    call.enterNs = little<uint64_t>(bytes, 0);
    call.exitNs = little<uint64_t>(bytes, 8);
    call.result = little<int64_t>(bytes, 16);
    call.sizeBytes = little<int64_t>(bytes, 24);
    call.pid = little<uint32_t>(bytes, 32);
    call.tid = little<uint32_t>(bytes, 36);
    call.fd = little<int32_t>(bytes, 40);
    call.name = static_cast<RecordedCallName>(little<uint16_t>(bytes, 44));
    const auto flags = little<uint16_t>(bytes, 46);
    const auto family = little<uint16_t>(bytes, 48);
    call.protocol = little<uint16_t>(bytes, 50);
    call.hasSocket = (flags & kHasSocket) != 0 && (family == kAfInet || family == kAfInet6);
    call.hasOption = (flags & kHasOption) != 0;
    if (call.hasSocket) {
        call.local = endpointOf(bytes, 56, family, little<uint16_t>(bytes, 52));
        call.remote = endpointOf(bytes, 72, family, little<uint16_t>(bytes, 54));
    }
    call.optionLevel = little<int32_t>(bytes, 88);
    call.optionName = little<int32_t>(bytes, 92);
    call.optionValue = little<int32_t>(bytes, 96);
    const auto* comm = reinterpret_cast<const char*>(bytes.data() + 104);
    call.command = validUtf8(std::string_view(comm, strnlen(comm, 16)));
    return call;
}

bool readRecordBlock(std::span<const uint8_t> data, RecordedCalls& calls, std::string& problem) {
    if (data.size() < kHeaderBytes) {
        problem = fmt::format("a tcpscope block of {} bytes, too short for its header", data.size());
        return false;
    }
    const auto kind = little<uint16_t>(data, 0);
    const auto version = little<uint16_t>(data, 2);
    const auto count = little<uint32_t>(data, 4);
    if (version != kBlockVersion) {
        problem = fmt::format("a tcpscope block of version {} (this tcpscope reads version {})", version, kBlockVersion);
        return false;
    }
    const std::span<const uint8_t> body = data.subspan(kHeaderBytes);
    switch (static_cast<RecordBlockKind>(kind)) {
        case RecordBlockKind::Clock:
            if (body.size() < 16) {
                break;
            }
            calls.clock.push_back({little<uint64_t>(body, 0), little<int64_t>(body, 8)});
            return true;
        case RecordBlockKind::Summary:
            if (body.size() < 16) {
                break;
            }
            calls.lostEvents += little<uint64_t>(body, 8);
            calls.hasSummary = true;
            return true;
        case RecordBlockKind::Calls: {
            if (body.size() / kCallRecordBytes < count) {
                break;
            }
            for (uint32_t i = 0; i < count; ++i) {
                RecordedCall call = decodeCall(body.subspan(i * kCallRecordBytes, kCallRecordBytes));
                if (static_cast<uint16_t>(call.name) >= 1 && static_cast<uint16_t>(call.name) <= kLastRecordedCallName) {
                    calls.calls.push_back(std::move(call));
                }
            }
            return true;
        }
        default:
            problem = fmt::format("a tcpscope block of unknown kind {}", kind);
            return false;
    }
    problem = fmt::format("a tcpscope block of kind {} cut short ({} bytes)", kind, data.size());
    return false;
}

int64_t RecordedCalls::realtimeNs(uint64_t monotonicNs) const {
    if (clock.empty()) {
        return static_cast<int64_t>(monotonicNs);
    }
    const ClockSample& first = clock.front();
    const ClockSample& last = clock.back();
    const auto sinceFirst = static_cast<int64_t>(monotonicNs - first.monotonicNs);
    if (clock.size() == 1 || last.monotonicNs == first.monotonicNs) {
        return first.realtimeNs + sinceFirst;
    }
    // CLOCK_REALTIME may have been slewed between the samples: spread the difference linearly.
    const double drift = static_cast<double>((last.realtimeNs - first.realtimeNs) -
                                             static_cast<int64_t>(last.monotonicNs - first.monotonicNs)) /
                         static_cast<double>(last.monotonicNs - first.monotonicNs);
    return first.realtimeNs + sinceFirst + static_cast<int64_t>(drift * static_cast<double>(sinceFirst));
}

}  // namespace tcpscope
