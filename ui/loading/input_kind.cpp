#include "loading/input_kind.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

#include "capture/byte_source.hpp"
#include "strace/strace_line.hpp"

namespace tcpscope::ui {

namespace {

constexpr size_t kSniffBytes = 16 * 1024;  // enough for a few dozen strace lines
constexpr int kLinesToJudge = 40;

bool hasCaptureMagic(const uint8_t* bytes) {
    static constexpr std::array<std::array<uint8_t, 4>, 5> kMagics = {{
        {0xd4, 0xc3, 0xb2, 0xa1},  // pcap, microseconds, little endian
        {0xa1, 0xb2, 0xc3, 0xd4},  // pcap, microseconds, big endian
        {0x4d, 0x3c, 0xb2, 0xa1},  // pcap, nanoseconds, little endian
        {0xa1, 0xb2, 0x3c, 0x4d},  // pcap, nanoseconds, big endian
        {0x0a, 0x0d, 0x0d, 0x0a},  // pcapng section header block
    }};
    return std::any_of(kMagics.begin(), kMagics.end(),
                       [bytes](const auto& magic) { return std::memcmp(bytes, magic.data(), magic.size()) == 0; });
}

// Most of the first lines are system calls, signals, exits or strace's own notices. A cut last
// line does not count against it.
bool looksLikeStrace(std::string_view text) {
    int strace = 0;
    int other = 0;
    size_t start = 0;
    while (start < text.size() && strace + other < kLinesToJudge) {
        const size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            break;
        }
        const StraceLine line = parseStraceLine(text.substr(start, end - start));
        start = end + 1;
        switch (line.type) {
            case StraceLineType::Blank: break;
            case StraceLineType::Unparsed: ++other; break;
            default: ++strace; break;
        }
    }
    return strace > 0 && strace >= 2 * other;
}

}  // namespace

InputClassification classifyInput(const std::string& path) {
    try {
        ByteSource source = ByteSource::openFile(path);
        const uint8_t* head = source.ensure(kSniffBytes);
        const size_t size = head != nullptr ? kSniffBytes : source.available();
        head = head != nullptr ? head : source.ensure(size);
        if (head == nullptr || size == 0) {
            return {InputKind::Unknown, InputProblem{path, 0, "empty file"}.describe()};
        }
        if (size >= 4 && hasCaptureMagic(head)) {
            return {InputKind::Capture, {}};
        }
        if (looksLikeStrace(std::string_view(reinterpret_cast<const char*>(head), size))) {
            return {InputKind::StraceLog, {}};
        }
        return {InputKind::Unknown,
                InputProblem{path, 0, "neither a capture (pcap, pcapng) nor an strace log"}.describe()};
    } catch (const CaptureError& error) {
        return {InputKind::Unknown, error.problem().describe()};
    }
}

}  // namespace tcpscope::ui
