#include "recorded/recorded_calls_reader.hpp"

#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "recorded/call_block.hpp"

#include <string_view>

namespace tcpscope {
namespace {

constexpr uint32_t kSectionHeaderType = 0x0A0D0D0A;
constexpr uint32_t kByteOrderMagic = 0x1A2B3C4D;
constexpr uint32_t kMaxBlockBytes = 16u << 20;

uint32_t swapped32(uint32_t value) { return __builtin_bswap32(value); }

// True if the Section Header Block (of `length` bytes, the file positioned after its length field)
// names `tcpscope-cli record` as its application (shb_userappl); the position is kept.
bool writtenByRecord(std::FILE* file, uint32_t length) {
    constexpr uint32_t kMaxHeaderBytes = 64 * 1024;
    if (length < 28 || length > kMaxHeaderBytes) {
        return false;
    }
    const long start = std::ftell(file);
    std::vector<uint8_t> body(length - 12);
    const bool read = std::fread(body.data(), body.size(), 1, file) == 1;
    std::fseek(file, start, SEEK_SET);
    if (!read) {
        return false;
    }
    const std::string_view text(reinterpret_cast<const char*>(body.data()), body.size());
    return text.find(kRecordApplication) != std::string_view::npos;
}

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};

}  // namespace

std::optional<RecordedCalls> readRecordedCalls(const std::string& path, std::string* problem) {
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
    if (!file) {
        return std::nullopt;
    }
    RecordedCalls calls;
    bool sawBlock = false;
    bool swapped = false;
    std::vector<uint8_t> body;
    for (;;) {
        uint32_t head[2] = {};
        if (std::fread(head, sizeof(head), 1, file.get()) != 1) {
            break;
        }
        uint32_t type = head[0];
        if (type == kSectionHeaderType) {
            uint32_t magic = 0;
            if (std::fread(&magic, sizeof(magic), 1, file.get()) != 1) {
                break;
            }
            if (magic != kByteOrderMagic && swapped32(magic) != kByteOrderMagic) {
                break;
            }
            swapped = magic != kByteOrderMagic;
            if (std::fseek(file.get(), -4, SEEK_CUR) != 0) {
                break;
            }
            if (!sawBlock && !writtenByRecord(file.get(), swapped ? swapped32(head[1]) : head[1])) {
                return std::nullopt;  // not scanned: a capture of tens of GB would be read twice
            }
        } else if (!sawBlock) {
            return std::nullopt;  // not a pcapng file
        }
        sawBlock = true;
        if (swapped) {
            type = swapped32(type);
        }
        const uint32_t length = swapped ? swapped32(head[1]) : head[1];
        if (length < 12 || length % 4 != 0 || length > kMaxBlockBytes) {
            break;
        }
        const size_t bodyBytes = length - 12;
        if (type != kCustomBlockType) {
            if (std::fseek(file.get(), static_cast<long>(bodyBytes + 4), SEEK_CUR) != 0) {
                break;
            }
            continue;
        }
        body.resize(bodyBytes + 4);
        if (std::fread(body.data(), body.size(), 1, file.get()) != 1 || bodyBytes < 4) {
            break;
        }
        uint32_t pen = 0;
        std::memcpy(&pen, body.data(), 4);
        if ((swapped ? swapped32(pen) : pen) != kTcpscopePen) {
            continue;
        }
        std::string blockProblem;
        if (!readRecordBlock(std::span<const uint8_t>(body).subspan(4, bodyBytes - 4), calls, blockProblem) &&
            problem != nullptr && problem->empty()) {
            *problem = blockProblem;
        }
    }
    if (calls.calls.empty() && calls.clock.empty() && !calls.hasSummary) {
        return std::nullopt;
    }
    return calls;
}

}  // namespace tcpscope
