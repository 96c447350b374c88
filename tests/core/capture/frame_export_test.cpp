// exportFrames: the chosen frames of a capture written to a new file in the input's format, each
// as the input holds it; what packets -w and File > Export shown packets write.
#include "capture/frame_export.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "capture/capture_reader.hpp"
#include "capture/pcapng_writer.hpp"
#include "support/packet_builder.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

struct ReadFrame {
    int64_t tsNs = 0;
    uint32_t capturedLength = 0;
    uint32_t originalLength = 0;
    uint32_t linkType = 0;
    std::vector<uint8_t> bytes;
    std::string comment;

    bool operator==(const ReadFrame&) const = default;
};

std::vector<ReadFrame> readAll(const std::string& path, std::string* container = nullptr) {
    const auto reader = CaptureReader::open(path);
    std::vector<ReadFrame> frames;
    RawPacket packet;
    while (reader->next(packet)) {
        frames.push_back({packet.tsNs, packet.capturedLength, packet.originalLength, packet.linkType,
                          std::vector<uint8_t>(packet.data, packet.data + packet.capturedLength),
                          std::string(packet.comment)});
    }
    if (container != nullptr) {
        *container = reader->format().container;
    }
    return frames;
}

std::vector<BuiltPacket> fivePackets() {
    std::vector<BuiltPacket> packets;
    for (uint32_t i = 0; i < 5; ++i) {
        SegmentSpec spec;
        spec.seq = 1000 * i;
        spec.payloadLength = 10 * i;
        packets.push_back(buildPacket(spec, 1'700'000'000'000'000'000 + int64_t{i} * 1'234'567));
    }
    return packets;
}

}  // namespace

TEST_CASE("exportFrames keeps a microsecond pcap a microsecond pcap of the same snapshot length, frames unchanged",
          "[capture][export]") {
    const auto input = uniqueTempPath("export-in");
    const auto output = uniqueTempPath("export-out");
    std::vector<BuiltPacket> packets = fivePackets();
    packets[3].originalLength = 1500;  // cut by the snapshot length
    writePcapFile(input, packets, PcapFileOptions{.snaplen = 200, .nanosecond = false});

    // A frame asked twice: written once.
    const std::vector<uint32_t> frames{2, 4, 4, 5};
    const FrameExportResult result = exportFrames(input.string(), frames, output.string());
    CHECK(result.packets == 3);
    CHECK(result.container == "pcap");
    CHECK(result.problems.empty());
    std::string container;
    const std::vector<ReadFrame> in = readAll(input.string());
    const std::vector<ReadFrame> out = readAll(output.string(), &container);
    CHECK(container == "pcap");
    REQUIRE(out.size() == 3);
    CHECK(out[0] == in[1]);
    CHECK(out[1] == in[3]);
    CHECK(out[1].originalLength == 1500);
    CHECK(out[2] == in[4]);
    // The whole file chosen: the same bytes as the input.
    const std::vector<uint32_t> all{1, 2, 3, 4, 5};
    exportFrames(input.string(), all, output.string());
    std::ifstream written(output, std::ios::binary);
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(written), std::istreambuf_iterator<char>()};
    CHECK(bytes == pcapFileBytes(packets, PcapFileOptions{.snaplen = 200, .nanosecond = false}));

    // Nothing chosen: a valid empty capture of the same kind.
    CHECK(exportFrames(input.string(), {}, output.string()).packets == 0);
    CHECK(readAll(output.string()).empty());
    std::filesystem::remove(input);
    std::filesystem::remove(output);
}

TEST_CASE("exportFrames keeps a pcapng a pcapng: each frame's interface (link type), time and comment",
          "[capture][export]") {
    const auto input = uniqueTempPath("export-in", ".pcapng");
    const auto output = uniqueTempPath("export-out", ".pcapng");
    const std::vector<BuiltPacket> packets = fivePackets();
    SegmentSpec raw;
    raw.seq = 77;
    const BuiltPacket rawIp = buildPacket(raw, packets[2].tsNs + 1, linktype::kRaw);
    {
        PcapngSectionInfo section;
        section.comments = {"the incident of Tuesday"};
        PcapngWriter writer(input.string(), section);
        PcapngInterfaceInfo interface;
        interface.linkType = linktype::kEthernet;
        const uint32_t ethernet = writer.addInterface(interface);
        interface.linkType = linktype::kRaw;
        const uint32_t rawInterface = writer.addInterface(interface);
        for (size_t i = 0; i < packets.size(); ++i) {
            writer.writePacket({ethernet, packets[i].tsNs, static_cast<uint32_t>(packets[i].bytes.size()),
                                packets[i].bytes, i == 1 ? "slow reply" : ""});
            if (i == 2) {
                writer.writePacket(
                    {rawInterface, rawIp.tsNs, static_cast<uint32_t>(rawIp.bytes.size()), rawIp.bytes, "raw"});
            }
        }
        writer.close();
    }
    const std::vector<uint32_t> frames{2, 4, 6};  // frame 4 is the raw IP one
    const FrameExportResult result = exportFrames(input.string(), frames, output.string());
    CHECK(result.packets == 3);
    CHECK(result.container == "pcapng");
    const std::vector<ReadFrame> in = readAll(input.string());
    std::string container;
    const std::vector<ReadFrame> out = readAll(output.string(), &container);
    CHECK(container == "pcapng");
    REQUIRE(out.size() == 3);
    CHECK(out[0] == in[1]);
    CHECK(out[0].comment == "slow reply");
    CHECK(out[1] == in[3]);
    CHECK(out[1].linkType == linktype::kRaw);
    CHECK(out[2] == in[5]);
    CHECK(CaptureReader::open(output.string())->sectionComments() ==
          std::vector<std::string>{"the incident of Tuesday"});
    std::filesystem::remove(input);
    std::filesystem::remove(output);
}

TEST_CASE("exportFrames refuses the input as its output and names the output it cannot write", "[capture][export]") {
    const auto input = uniqueTempPath("export-in");
    writePcapFile(input, fivePackets());
    const auto size = std::filesystem::file_size(input);
    const std::vector<uint32_t> frames{1};
    CHECK_THROWS_WITH(exportFrames(input.string(), frames, input.string()),
                      Catch::Contains("refusing to write the exported packets over the capture"));
    CHECK(std::filesystem::file_size(input) == size);
    const std::string nowhere = "/nonexistent-folder/out.pcap";
    CHECK_THROWS_WITH(exportFrames(input.string(), frames, nowhere), Catch::StartsWith(nowhere + ": "));
    CHECK_THROWS_AS(exportFrames("/nonexistent-folder/in.pcap", frames, input.string() + ".out"), CaptureError);
    std::filesystem::remove(input);
}
