// The calls the capture helper records, taken out of its pcapng stream: the capture reader hands
// the custom blocks on in stream order between the packets, HelperCallStream decodes them as
// readRecordedCalls decodes a file's, and copies them into the capture file as they came.
#include "recorder/helper_call_stream.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "capture/capture_reader.hpp"
#include "capture/pcapng_writer.hpp"
#include "live/capture_file_writer.hpp"
#include "recorded/call_block.hpp"
#include "recorded/recorded_calls_reader.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope {
namespace {

// A write of 100 bytes on 127.0.0.1:40000 -> 127.0.0.1:8080 by pid 42, as the BPF program lays it out.
std::vector<uint8_t> rawWrite(uint64_t enterNs) {
    std::vector<uint8_t> event(kCallRecordBytes, 0);
    const auto put = [&event](size_t offset, uint64_t value, size_t bytes) {
        for (size_t i = 0; i < bytes; ++i) {
            event[offset + i] = static_cast<uint8_t>(value >> (8 * i));
        }
    };
    put(0, enterNs, 8);
    put(8, enterNs + 5000, 8);
    put(16, 100, 8);
    put(24, 100, 8);
    put(32, 42, 4);
    put(36, 42, 4);
    put(40, 7, 4);
    put(44, 1, 2);  // write
    put(46, 1, 2);  // the socket was read
    put(48, 2, 2);  // AF_INET
    put(50, 6, 2);
    put(52, 40000, 2);
    put(54, 8080, 2);
    for (const size_t address : {size_t{56}, size_t{72}}) {
        put(address, 0x0100007f, 4);  // 127.0.0.1 in network order
    }
    event[104] = 'p';
    return event;
}

}  // namespace

TEST_CASE("helper call stream: the custom blocks taken in stream order, decoded and copied as a file's", "[recorder]") {
    const std::filesystem::path stream = test::uniqueTempPath("helper-stream", ".pcapng");
    const std::vector<uint8_t> frame(40, 0x45);
    const std::string process = "PID: 42\nThreadId: 42\nCmd: proxy";
    {
        // What tcpscope-capture --syscalls writes: clock, packets and calls, clock, summary.
        PcapngWriter writer(stream.string(), PcapngSectionInfo{{}, {}, std::string(kRecordApplication), {}});
        writer.addInterface(PcapngInterfaceInfo{linktype::kRaw, 262144, "lo", "", ""});
        writer.writeCustomBlock(kCustomBlockType, kTcpscopePen,
                                encodeClockBlock({1'000'000'000, 1'700'000'000'000'000'000}));
        writer.writePacket(PcapngPacket{0, 1'700'000'000'001'000'000, 40, frame, process});
        std::vector<uint8_t> events = rawWrite(1'002'000'000);
        const std::vector<uint8_t> second = rawWrite(1'003'000'000);
        events.insert(events.end(), second.begin(), second.end());
        writer.writeCustomBlock(kCustomBlockType, kTcpscopePen, encodeCallsBlock(events, 2));
        writer.writeCustomBlock(kCustomBlockType, 12345, encodeSummaryBlock(9, 9));  // not tcpscope's: left out
        writer.writePacket(PcapngPacket{0, 1'700'000'000'004'000'000, 40, frame, {}});
        writer.writeCustomBlock(kCustomBlockType, kTcpscopePen,
                                encodeClockBlock({2'000'000'000, 1'700'000'001'000'000'000}));
        writer.writeCustomBlock(kCustomBlockType, kTcpscopePen, encodeSummaryBlock(2, 5));
        writer.close();
    }

    const std::filesystem::path written = test::uniqueTempPath("helper-stream-copy", ".pcapng");
    HelperCallStream calls;
    std::string order;
    {
        std::unique_ptr<CaptureReader> reader = CaptureReader::open(stream.string());
        reader->setCustomBlockListener([&calls, &order](const CustomBlock& block) {
            order += block.enterpriseNumber == kTcpscopePen ? 'B' : 'x';
            calls.take(block);
        });
        CaptureFileWriter file(CaptureFileOptions{written.string(), 0, 0, 0, std::string(kRecordApplication)},
                               CaptureDescription{"lo", "", 262144, linktype::kRaw, true, true});
        RawPacket packet;
        while (reader->next(packet)) {
            order += 'P';
            calls.annotate(packet);
            file.write(packet);
            calls.writeInto(&file);
        }
        calls.finishInto(&file);
        file.close(CaptureStats{}, 0, 0);
    }
    CHECK(order == "BPBxPBB");
    CHECK(calls.packetsWithProcess() == 1);
    CHECK(calls.problem().empty());

    // As analyze reads the helper's stream saved to a file, and the file tcpscope-cli wrote.
    for (const std::filesystem::path& path : {stream, written}) {
        INFO(path);
        const std::optional<RecordedCalls> read = readRecordedCalls(path.string());
        REQUIRE(read);
        const RecordedCalls taken = calls.calls();
        CHECK(taken.calls.size() == 2);
        CHECK(read->calls.size() == taken.calls.size());
        CHECK(read->clock.size() == 2);
        CHECK(taken.clock.size() == 2);
        CHECK(read->lostEvents == 5);
        CHECK(taken.lostEvents == 5);
        CHECK(taken.hasSummary);
        CHECK(read->calls.front().local == taken.calls.front().local);
        CHECK(read->calls.back().enterNs == taken.calls.back().enterNs);
    }
    // A verdict pass reads the calls of its connections only.
    const RecordedCall first = calls.calls().calls.front();
    const ConnectionEnds ends{first.local, first.remote};
    CHECK(calls.callsOf(std::span(&ends, 1)).calls.size() == 2);
    ConnectionEnds other = ends;
    other.server.port = 9;
    CHECK(calls.callsOf(std::span(&other, 1)).calls.empty());
    std::filesystem::remove(stream);
    std::filesystem::remove(written);
}

}  // namespace tcpscope
