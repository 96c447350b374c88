#include "annotate/pcapng_copy.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "annotate/note_sidecar.hpp"
#include "capture/capture_reader.hpp"
#include "capture/pcapng_writer.hpp"

namespace tcpscope {

namespace {

struct OpenCapture {
    std::unique_ptr<CaptureReader> reader;
    RawPacket pending;
    bool hasPending = false;
    uint8_t tsResolutionDigits = 9;
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

// Copies every frame of `inputs` (merged in time order) to `writer`, with the notes' texts as comments.
PcapngCopyResult copyFrames(std::vector<OpenCapture>& inputs, const std::vector<Note>& notes, PcapngWriter& writer) {
    const auto textsByFrame = noteTextsByFrame(notes);
    PcapngCopyResult result;
    std::map<std::pair<size_t, uint32_t>, uint32_t> interfaceOf;  // (input, its interface) -> copy's interface
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
            PcapngInterfaceInfo interface;
            interface.linkType = packet.linkType;
            interface.tsResolutionDigits = earliest->tsResolutionDigits;
            interface.tsOffsetSeconds = earliest->reader->timeOrigin().epochSeconds;  // a capture far from the epoch
            found = interfaceOf.emplace(key, writer.addInterface(interface)).first;
        }
        PcapngPacket copy{found->second, packet.tsNs, std::max(packet.originalLength, packet.capturedLength),
                          {packet.data, packet.capturedLength}, packet.comment};
        if (!packet.comment.empty()) {
            ++result.commentsKept;
        }
        if (const auto texts = textsByFrame.find(frame); texts != textsByFrame.end()) {
            copy.moreComments = texts->second;
            result.notesWritten += texts->second.size();
        }
        writer.writePacket(copy);
        ++result.packets;
        earliest->hasPending = earliest->reader->next(earliest->pending);
    }
    for (const auto& [noteFrame, texts] : textsByFrame) {
        if (noteFrame == 0 || noteFrame > frame) {
            result.notesNotPlaced += texts.size();
        }
    }
    return result;
}

}  // namespace

PcapngCopyResult writePcapngWithNotes(const std::vector<std::string>& capturePaths, const std::vector<Note>& notes,
                                      const std::string& outPath) {
    refuseInputAsOutput(capturePaths, outPath);
    std::vector<OpenCapture> inputs(capturePaths.size());
    PcapngSectionInfo section;
    section.application = "tcpscope (copy with notes)";
    for (size_t i = 0; i < capturePaths.size(); ++i) {
        inputs[i].reader = CaptureReader::open(capturePaths[i]);
        // A microsecond pcap stays in microseconds, so the copy shows the same digits as the original.
        if (inputs[i].reader->format().container == "pcap") {
            inputs[i].tsResolutionDigits = 6;
        }
        inputs[i].hasPending = inputs[i].reader->next(inputs[i].pending);
        // Section comments are only known once a pcapng header is read, which open() did.
        const auto& comments = inputs[i].reader->sectionComments();
        section.comments.insert(section.comments.end(), comments.begin(), comments.end());
    }

    const std::string temporary = fmt::format("{}.tmp-{}", outPath, ::getpid());
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        fail(outPath, 0, fmt::format("cannot create {}: {}", temporary, std::strerror(errno)));
    }
    PcapngCopyResult result;
    try {
        PcapngWriter writer(fd, outPath, section, PcapngFlush::Manual);
        result = copyFrames(inputs, notes, writer);
        writer.sync();
        writer.close();
    } catch (const CaptureWriteError& error) {
        ::close(fd);
        ::unlink(temporary.c_str());
        throw NoteFileError(error.problem());
    } catch (...) {
        ::close(fd);
        ::unlink(temporary.c_str());
        throw;
    }
    if (::close(fd) != 0 || std::rename(temporary.c_str(), outPath.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        fail(outPath, 0, fmt::format("cannot write: {}", std::strerror(error)));
    }
    for (const OpenCapture& input : inputs) {
        const auto& warnings = input.reader->warnings();
        result.problems.insert(result.problems.end(), warnings.begin(), warnings.end());
        if (const InputProblem* problem = input.reader->error()) {
            result.problems.push_back(*problem);
        }
    }
    return result;
}

}  // namespace tcpscope
