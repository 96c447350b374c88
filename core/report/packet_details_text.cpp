#include "report/packet_details_text.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "dissect/frame_bytes_reader.hpp"
#include "dissect/frame_dissector.hpp"
#include "dissect/hex_dump.hpp"

namespace tcpscope {

namespace {

constexpr const char* kFollowRule = "===================================================================";

void writeNode(std::ostream& out, const dissect::DissectionNode& node, int depth) {
    const std::string indent(static_cast<size_t>(depth) * 4, ' ');
    if (node.value.empty()) {
        fmt::print(out, "{}{}\n", indent, node.label);
    } else {
        fmt::print(out, "{}{}: {}\n", indent, node.label, node.value);
    }
    for (const dissect::DissectionNode& child : node.children) {
        writeNode(out, child, depth + 1);
    }
}

}  // namespace

void writeDissectionText(std::ostream& out, const std::vector<dissect::DissectionNode>& layers) {
    for (const dissect::DissectionNode& layer : layers) {
        writeNode(out, layer, 0);
    }
}

void writePacketDetailsText(std::ostream& out, const CaptureAnalysis& analysis, std::optional<uint32_t> flow,
                            const PacketSelectionFn& selected) {
    const AnalysisEngine& engine = *analysis.engine;
    const PacketIndex& packets = engine.packets();
    if (analysis.inputs.empty()) {
        return;
    }
    dissect::FrameBytesReader reader(analysis.inputs.front().path);
    for (size_t i = 0; i < packets.size(); ++i) {
        if ((flow && packets.connection(i) != *flow) || (selected && !selected(i))) {
            continue;
        }
        const IndexedPacket packet = packets.at(i);
        if (packet.fileIndex != 0) {
            continue;  // the reader reads the first file; the frames of the others are not read again
        }
        const std::optional<dissect::FrameBytes> frame = reader.read(packet.recordOffset);
        if (!frame) {
            fmt::print(out, "Frame {}: its bytes cannot be read again: {}\n\n", packet.frame, reader.problem());
            continue;
        }
        const Connection& connection = engine.connections()[packet.connection];
        writeDissectionText(out, dissect::dissectFrame(*frame, dissect::dissectContextOf(connection, packet)));
        fmt::print(out, "\n");
        for (const std::string& line : dissect::hexDumpLines(frame->data)) {
            fmt::print(out, "{}\n", line);
        }
        fmt::print(out, "\n");
    }
}

void writeFollowText(std::ostream& out, const dissect::FollowedStream& followed, uint32_t stream,
                     const std::string& client, const std::string& server, FollowFormat format) {
    const char* formatName = format == FollowFormat::Ascii ? "ascii" : format == FollowFormat::Hex ? "hex" : "raw";
    fmt::print(out, "\n{}\nFollow: tcp,{}\nFilter: tcp.stream eq {}\nNode 0: {}\nNode 1: {}\n", kFollowRule, formatName,
               stream, client, server);
    uint64_t offsets[2] = {0, 0};
    for (const dissect::StreamChunk& chunk : followed.chunks) {
        const char* indent = chunk.fromServer ? "\t" : "";
        if (chunk.missingBytes > 0) {
            fmt::print(out, "{}[{} bytes missing in capture]\n", indent, chunk.missingBytes);
            continue;
        }
        uint64_t& offset = offsets[chunk.fromServer ? 1 : 0];
        switch (format) {
            case FollowFormat::Ascii:
                fmt::print(out, "{}{}\n{}\n", indent, chunk.bytes.size(), dissect::printableText(chunk.bytes));
                break;
            case FollowFormat::Hex:
                for (const std::string& line : dissect::hexDumpLines(chunk.bytes, offset, 8)) {
                    fmt::print(out, "{}{}\n", indent, line);
                }
                break;
            case FollowFormat::Raw: {
                std::string hex;
                hex.reserve(chunk.bytes.size() * 2);
                for (const uint8_t byte : chunk.bytes) {
                    hex += fmt::format("{:02x}", byte);
                }
                fmt::print(out, "{}{}\n", indent, hex);
                break;
            }
        }
        offset += chunk.bytes.size();
    }
    fmt::print(out, "{}\n", kFollowRule);
    for (const std::string& problem : followed.problems) {
        fmt::print(out, "not read again: {}\n", problem);
    }
}

}  // namespace tcpscope
