#include "annotate/pcapng_copy.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "annotate/note_sidecar.hpp"
#include "annotate/pcapng_block_writer.hpp"
#include "capture/capture_reader.hpp"

namespace tcpscope {

namespace {

struct OpenCapture {
    std::unique_ptr<CaptureReader> reader;
    RawPacket pending;
    bool hasPending = false;
    int64_t unitsPerSecond = 1'000'000'000;
};

[[noreturn]] void fail(const std::string& path, uint64_t offset, std::string reason) {
    throw NoteFileError(InputProblem{path, offset, std::move(reason)});
}

void refuseInputAsOutput(const std::vector<std::string>& capturePaths, const std::string& outPath) {
    std::error_code error;
    for (const std::string& input : capturePaths) {
        if (input == outPath || std::filesystem::equivalent(input, outPath, error)) {
            fail(outPath, 0, "refusing to write the copy over its own capture file; give another name");
        }
    }
}

// Texts of the user's packet notes, by frame, in id order.
std::map<uint32_t, std::vector<std::string_view>> noteTextsByFrame(const std::vector<Note>& notes) {
    std::map<uint32_t, std::vector<std::string_view>> byFrame;
    for (const Note& note : notes) {
        const auto* packet = std::get_if<PacketNoteTarget>(&note.target);
        if (packet != nullptr && !note.readOnly() && !note.text.empty()) {
            byFrame[packet->frame].push_back(note.text);
        }
    }
    return byFrame;
}

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};

}  // namespace

PcapngCopyResult writePcapngWithNotes(const std::vector<std::string>& capturePaths, const std::vector<Note>& notes,
                                      const std::string& outPath) {
    refuseInputAsOutput(capturePaths, outPath);
    std::vector<OpenCapture> inputs(capturePaths.size());
    std::vector<std::string> sectionComments;
    for (size_t i = 0; i < capturePaths.size(); ++i) {
        inputs[i].reader = CaptureReader::open(capturePaths[i]);
        // A microsecond pcap stays in microseconds, so the copy shows the same digits as the original.
        if (inputs[i].reader->format().container == "pcap") {
            inputs[i].unitsPerSecond = 1'000'000;
        }
        inputs[i].hasPending = inputs[i].reader->next(inputs[i].pending);
    }

    const std::string temporary = fmt::format("{}.tmp-{}", outPath, ::getpid());
    std::unique_ptr<std::FILE, FileCloser> out(std::fopen(temporary.c_str(), "wb"));
    if (!out) {
        fail(outPath, 0, fmt::format("cannot create {}: {}", temporary, std::strerror(errno)));
    }
    PcapngBlockWriter writer(out.get());
    // Section comments are only known once a pcapng header is read, which open() did.
    for (const OpenCapture& input : inputs) {
        const auto& comments = input.reader->sectionComments();
        sectionComments.insert(sectionComments.end(), comments.begin(), comments.end());
    }
    writer.writeSection("tcpscope (copy with notes)", sectionComments);

    const auto textsByFrame = noteTextsByFrame(notes);
    PcapngCopyResult result;
    std::map<std::pair<size_t, uint32_t>, uint32_t> interfaceOf;  // (input, its interface) -> copy's interface
    std::vector<std::string_view> comments;
    uint32_t frame = 0;
    while (true) {
        // Same merge as the analysis (earliest first, ties in the order given), so frame numbers agree.
        OpenCapture* earliest = nullptr;
        size_t earliestIndex = 0;
        for (size_t i = 0; i < inputs.size(); ++i) {
            if (inputs[i].hasPending && (earliest == nullptr || inputs[i].pending.tsNs < earliest->pending.tsNs)) {
                earliest = &inputs[i];
                earliestIndex = i;
            }
        }
        if (earliest == nullptr) {
            break;
        }
        const RawPacket& packet = earliest->pending;
        ++frame;
        const auto key = std::make_pair(earliestIndex, packet.interfaceId);
        auto found = interfaceOf.find(key);
        if (found == interfaceOf.end()) {
            found = interfaceOf.emplace(key, static_cast<uint32_t>(interfaceOf.size())).first;
            writer.writeInterface(packet.linkType, earliest->unitsPerSecond == 1'000'000 ? 6 : 9);
        }
        comments.clear();
        if (!packet.comment.empty()) {
            comments.push_back(packet.comment);
            ++result.commentsKept;
        }
        if (const auto texts = textsByFrame.find(frame); texts != textsByFrame.end()) {
            comments.insert(comments.end(), texts->second.begin(), texts->second.end());
            result.notesWritten += texts->second.size();
        }
        writer.writePacket(found->second, packet.tsNs, earliest->unitsPerSecond, {packet.data, packet.capturedLength},
                           packet.originalLength, comments);
        ++result.packets;
        if (!writer.ok()) {
            const int writeErrno = errno;
            out.reset();
            ::unlink(temporary.c_str());
            fail(outPath, writer.bytesWritten(), fmt::format("cannot write: {}", std::strerror(writeErrno)));
        }
        earliest->hasPending = earliest->reader->next(earliest->pending);
    }
    for (const auto& [noteFrame, texts] : textsByFrame) {
        if (noteFrame == 0 || noteFrame > frame) {
            result.notesNotPlaced += texts.size();
        }
    }
    for (const OpenCapture& input : inputs) {
        const auto& warnings = input.reader->warnings();
        result.problems.insert(result.problems.end(), warnings.begin(), warnings.end());
        if (const InputProblem* problem = input.reader->error()) {
            result.problems.push_back(*problem);
        }
    }
    const bool flushed = std::fflush(out.get()) == 0 && ::fsync(::fileno(out.get())) == 0;
    const int flushErrno = errno;
    out.reset();
    if (!flushed || std::rename(temporary.c_str(), outPath.c_str()) != 0) {
        const int renameErrno = flushed ? errno : flushErrno;
        ::unlink(temporary.c_str());
        fail(outPath, 0, fmt::format("cannot write: {}", std::strerror(renameErrno)));
    }
    return result;
}

}  // namespace tcpscope
