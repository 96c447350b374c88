#include "capture/frame_export.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>

#include "capture/capture_reader.hpp"
#include "capture/pcap_writer.hpp"
#include "capture/pcapng_writer.hpp"

namespace tcpscope {

namespace {

[[noreturn]] void fail(const std::string& path, std::string reason) {
    throw CaptureWriteError(InputProblem{path, 0, std::move(reason)});
}

// Walks the input frame by frame and hands the chosen ones to `write`, in file order.
template <typename Write>
uint64_t copyChosen(CaptureReader& reader, RawPacket& packet, bool hasPacket, std::span<const uint32_t> frames,
                    Write&& write) {
    uint64_t written = 0;
    uint32_t frame = 1;
    auto wanted = frames.begin();
    while (hasPacket && wanted != frames.end()) {
        while (wanted != frames.end() && *wanted < frame) {
            ++wanted;  // a frame asked twice is written once
        }
        if (wanted != frames.end() && *wanted == frame) {
            write(packet);
            ++written;
            ++wanted;
        }
        hasPacket = reader.next(packet);
        ++frame;
    }
    return written;
}

// A pcap input stays pcap: the same link type, timestamp resolution and snapshot length.
uint64_t writePcap(CaptureReader& reader, RawPacket& first, bool hasPacket, std::span<const uint32_t> frames,
                   const std::string& temporary) {
    PcapFileHeader header;
    header.linkType = hasPacket ? first.linkType : linktype::kEthernet;
    header.snapLength = reader.format().snapLength != 0 ? reader.format().snapLength : header.snapLength;
    header.nanoseconds = reader.format().container == "pcap-ns";
    const int64_t originNs = reader.timeOrigin().epochSeconds * 1'000'000'000;  // 0 for every pcap time
    PcapWriter writer(temporary, header);
    const uint64_t written = copyChosen(reader, first, hasPacket, frames, [&](const RawPacket& packet) {
        if (packet.capturedLength > header.snapLength) {
            throw std::invalid_argument(fmt::format(
                "the record at offset {} holds {} bytes, more than the file's snapshot length {}; a pcap copy "
                "cannot hold it",
                packet.recordOffset, packet.capturedLength, header.snapLength));
        }
        writer.writeRecord(packet.tsNs + originNs, {packet.data, packet.capturedLength},
                           std::max(packet.originalLength, packet.capturedLength));
    });
    writer.finish();
    return written;
}

// A pcapng input stays pcapng: an interface for each one a written frame came from, comments kept.
uint64_t writePcapng(CaptureReader& reader, RawPacket& first, bool hasPacket, std::span<const uint32_t> frames,
                     const std::string& temporary) {
    PcapngSectionInfo section;
    section.application = "tcpscope (exported packets)";
    section.comments = reader.sectionComments();
    PcapngWriter writer(temporary, section, PcapngFlush::Manual);
    std::map<uint32_t, uint32_t> interfaceOf;  // the input's interface -> the copy's
    const auto interfaceFor = [&](const RawPacket& packet) {
        auto found = interfaceOf.find(packet.interfaceId);
        if (found == interfaceOf.end()) {
            PcapngInterfaceInfo interface;
            interface.linkType = packet.linkType;
            interface.tsOffsetSeconds = reader.timeOrigin().epochSeconds;  // a capture far from the epoch
            found = interfaceOf.emplace(packet.interfaceId, writer.addInterface(interface)).first;
        }
        return found->second;
    };
    // The first frame's interface is described even when no frame is written: a pcapng file
    // without any is one libpcap refuses to open.
    if (hasPacket) {
        interfaceFor(first);
    }
    const uint64_t written = copyChosen(reader, first, hasPacket, frames, [&](const RawPacket& packet) {
        PcapngPacket copy{interfaceFor(packet),
                          packet.tsNs,
                          std::max(packet.originalLength, packet.capturedLength),
                          {packet.data, packet.capturedLength},
                          packet.comment};
        copy.direction = packet.direction;
        writer.writePacket(copy);
    });
    writer.sync();
    writer.close();
    return written;
}

}  // namespace

FrameExportResult exportFrames(const std::string& capturePath, std::span<const uint32_t> frames,
                               const std::string& outPath) {
    std::error_code sameError;
    if (capturePath == outPath || std::filesystem::equivalent(capturePath, outPath, sameError)) {
        fail(outPath, "refusing to write the exported packets over the capture they come from; give another name");
    }
    std::unique_ptr<CaptureReader> reader = CaptureReader::open(capturePath);
    RawPacket first;
    const bool hasPacket = reader->next(first);

    FrameExportResult result;
    result.container = reader->format().container;
    const std::string temporary = fmt::format("{}.tmp-{}", outPath, ::getpid());
    try {
        result.packets = result.container == "pcapng" ? writePcapng(*reader, first, hasPacket, frames, temporary)
                                                      : writePcap(*reader, first, hasPacket, frames, temporary);
    } catch (const std::invalid_argument& error) {
        ::unlink(temporary.c_str());
        fail(outPath, error.what());
    } catch (const CaptureWriteError& error) {
        ::unlink(temporary.c_str());  // said of the output the user named, not of its temporary name
        throw CaptureWriteError(InputProblem{outPath, error.problem().offset, error.problem().reason});
    } catch (...) {
        ::unlink(temporary.c_str());
        throw;
    }
    if (std::rename(temporary.c_str(), outPath.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        fail(outPath, fmt::format("cannot write: {}", std::strerror(error)));
    }
    result.problems = reader->warnings();
    if (const InputProblem* problem = reader->error()) {
        result.problems.push_back(*problem);
    }
    return result;
}

}  // namespace tcpscope
