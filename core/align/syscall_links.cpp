#include "align/syscall_links.hpp"

#include <algorithm>

#include "align/log_time.hpp"

namespace tcpscope {

namespace {

// A resend of a write's bytes can come well after later data; look this many segments past the
// first one that starts beyond the call's bytes before giving up.
constexpr size_t kLookPastEnd = 64;

// Segments of `stream` overlapping [begin, end), in capture order, starting the scan at `cursor`
// (advanced past segments that end before `begin`, which later calls cannot need either).
std::vector<const StreamSegment*> overlapping(const std::vector<StreamSegment>& stream, size_t& cursor, uint64_t begin,
                                              uint64_t end) {
    while (cursor < stream.size() && stream[cursor].offset + stream[cursor].length <= begin) {
        ++cursor;
    }
    std::vector<const StreamSegment*> found;
    size_t pastEnd = 0;
    for (size_t i = cursor; i < stream.size() && pastEnd < kLookPastEnd; ++i) {
        const StreamSegment& segment = stream[i];
        if (segment.offset >= end) {
            ++pastEnd;
            continue;
        }
        if (segment.offset + segment.length > begin) {
            found.push_back(&segment);
        }
    }
    return found;
}

}  // namespace

LinkResult linkSyscallsToSegments(const std::vector<AlignedLog>& logs, const std::vector<TracedSocket>& sockets,
                                  const ConnectionSegments& segments, const std::vector<int64_t>& logToCaptureNs) {
    LinkResult result;
    result.writeDelaySamplesNs.resize(logs.size());
    for (uint32_t socketIndex = 0; socketIndex < sockets.size(); ++socketIndex) {
        const TracedSocket& socket = sockets[socketIndex];
        if (socket.connection == kNoConnection || !socket.streamBasesKnown) {
            continue;
        }
        const StraceLog& log = logs[socket.log].log;
        const auto& sent = segments.of(socket.connection, socket.side);
        const auto& received = segments.of(socket.connection, otherSide(socket.side));
        uint64_t written = socket.sentBase;
        uint64_t read = socket.receivedBase;
        size_t sentCursor = 0;
        size_t receivedCursor = 0;
        for (uint32_t recordIndex : socket.records) {
            const SyscallRecord& record = log.records[recordIndex];
            const bool isWrite = record.kind == SyscallKind::Write;
            if ((!isWrite && record.kind != SyscallKind::Read) || !record.succeeded() || record.bytes <= 0) {
                continue;
            }
            const auto bytes = static_cast<uint64_t>(record.bytes);
            uint64_t& position = isWrite ? written : read;
            const auto matched = isWrite ? overlapping(sent, sentCursor, position, position + bytes)
                                         : overlapping(received, receivedCursor, position, position + bytes);
            CallLink link;
            link.socket = socketIndex;
            link.record = recordIndex;
            for (const StreamSegment* segment : matched) {
                link.frames.push_back(segment->frame);
            }
            // The first segment carrying the call's first byte: when a write's bytes left.
            const StreamSegment* first = nullptr;
            for (const StreamSegment* segment : matched) {
                if (segment->offset <= position && (first == nullptr || segment->tsNs < first->tsNs)) {
                    first = segment;
                }
            }
            if (first == nullptr && !matched.empty()) {
                first = matched.front();
            }
            if (first != nullptr) {
                link.firstSegmentTsNs = first->tsNs;
                if (isWrite && first->offset <= position) {
                    result.writeDelaySamplesNs[socket.log].push_back(
                        first->tsNs - onCaptureClock(record.tsNs, logToCaptureNs[socket.log]));
                }
            }
            position += bytes;
            result.links.push_back(std::move(link));
        }
    }
    return result;
}

}  // namespace tcpscope
