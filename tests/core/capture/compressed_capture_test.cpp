#include <catch2/catch.hpp>

#include "capture/capture_reader.hpp"
#include "core/capture/capture_builder.hpp"

using namespace tcpscope;
using namespace tcpscope::testing;

namespace {

/// A few megabytes of pcap, so that compressed reading crosses many buffer refills.
Bytes manyPacketsPcap(int count) {
    PcapBuilder builder(PcapHeader{true, false});
    for (int i = 0; i < count; ++i) {
        builder.record(1700000000 + static_cast<uint32_t>(i / 1000), static_cast<uint32_t>(i) * 7, sampleFrame(i));
    }
    return builder.bytes();
}

Bytes smallPcapng() {
    PcapngBuilder builder(true);
    builder.sectionHeader({}, "compressed").interfaceDescription(linktype::kEthernet, 0, 9);
    for (int i = 0; i < 50; ++i) {
        builder.enhancedPacket(0, 1'000'000'000ull * static_cast<uint64_t>(i), sampleFrame(i), 0,
                               i % 10 == 0 ? "c" : "");
    }
    return builder.bytes();
}

bool anyWarningContains(const CaptureReader& reader, const std::string& text) {
    return std::any_of(reader.warnings().begin(), reader.warnings().end(),
                       [&](const InputProblem& problem) { return problem.reason.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("compressed: gzip and zstd files give the same packets as the plain file", "[compression]") {
    const Bytes pcap = manyPacketsPcap(40000);
    const Bytes pcapng = smallPcapng();
    REQUIRE(pcap.size() > (size_t{4} << 20));
    for (const Bytes* plain : {&pcap, &pcapng}) {
        const auto expected = readAllFromMemory(*plain);
        const std::string container = plain == &pcap ? "pcap-ns" : "pcapng";
        struct Variant {
            std::string compression;
            Bytes bytes;
        };
        const std::vector<Variant> variants = {
            {"gzip", gzipCompress(*plain)},
            {"gzip", gzipCompress(*plain, 3)},  // concatenated members, as `cat a.gz b.gz` makes
            {"zstd", zstdCompress(*plain)},
            {"zstd", zstdCompress(*plain, 4)},  // several frames
        };
        for (const Variant& variant : variants) {
            CAPTURE(container, variant.compression, variant.bytes.size());
            const auto path = writeTempFile("compressed.capture", variant.bytes);
            auto reader = CaptureReader::open(path.string());
            CHECK(reader->format().container == container);
            CHECK(reader->format().compression == variant.compression);
            CHECK(reader->fileSize() == variant.bytes.size());
            CHECK(readAll(*reader) == expected);
            CHECK(reader->bytesConsumed() == variant.bytes.size());
            CHECK(reader->warnings().empty());
            CHECK(reader->error() == nullptr);
            if (container == "pcapng") {
                CHECK(reader->sectionComments() == std::vector<std::string>{"compressed"});
            }
            auto fromMemory = CaptureReader::openMemory("memory", variant.bytes);
            CHECK(readAll(*fromMemory) == expected);
        }
    }
}

TEST_CASE("compressed: a cut gzip or zstd file keeps the packets before the cut", "[compression][truncated]") {
    // Large enough for many zstd blocks: zstd decodes nothing of a block until it has all of it.
    const Bytes plain = manyPacketsPcap(30000);
    const auto expected = readAllFromMemory(plain);
    for (const std::string compression : {"gzip", "zstd"}) {
        const Bytes compressed = compression == "gzip" ? gzipCompress(plain) : zstdCompress(plain);
        for (const double fraction : {0.3, 0.5, 0.97}) {
            const auto cut = static_cast<size_t>(static_cast<double>(compressed.size()) * fraction);
            CAPTURE(compression, cut);
            auto reader = CaptureReader::openMemory(
                "cut", Bytes(compressed.begin(), compressed.begin() + static_cast<std::ptrdiff_t>(cut)));
            const auto packets = readAll(*reader);
            CHECK(packets.size() > 0);
            CHECK(packets.size() < expected.size());
            CHECK(std::equal(packets.begin(), packets.end(), expected.begin()));
            CHECK(reader->error() == nullptr);
            CHECK(anyWarningContains(*reader, compression + " data is cut short"));
        }
    }
}

TEST_CASE("compressed: corrupt compressed data is an error after the packets decoded before it", "[compression]") {
    // Half the packets in a good gzip member or zstd frame, then one whose header is broken.
    PcapBuilder builder;
    for (int i = 0; i < 10000; ++i) {
        builder.record(static_cast<uint32_t>(i), 0, sampleFrame(i));
    }
    const Bytes firstHalf = builder.bytes();
    for (int i = 10000; i < 20000; ++i) {
        builder.record(static_cast<uint32_t>(i), 0, sampleFrame(i));
    }
    const Bytes plain = builder.bytes();
    const Bytes secondHalf(plain.begin() + static_cast<std::ptrdiff_t>(firstHalf.size()), plain.end());
    const auto expected = readAllFromMemory(firstHalf);

    Bytes gzip = gzipCompress(firstHalf);
    Bytes badMember = gzipCompress(secondHalf);
    badMember[2] = 0x99;  // compression method: only 8 (deflate) exists
    gzip.insert(gzip.end(), badMember.begin(), badMember.end());
    Bytes zstd = zstdCompress(firstHalf);
    Bytes badFrame = zstdCompress(secondHalf);
    badFrame[4] |= 0x08;  // a reserved bit of the frame header descriptor
    zstd.insert(zstd.end(), badFrame.begin(), badFrame.end());

    for (const auto& [compression, file] :
         {std::pair{std::string("gzip"), gzip}, std::pair{std::string("zstd"), zstd}}) {
        CAPTURE(compression);
        const auto path = writeTempFile("corrupt.capture", file);
        auto reader = CaptureReader::open(path.string());
        CHECK(readAll(*reader) == expected);
        REQUIRE(reader->error() != nullptr);
        CHECK_THAT(reader->error()->reason, Catch::StartsWith("corrupt " + compression + " data at"));
        CHECK(reader->error()->file == path.string());
        CHECK(reader->error()->offset == firstHalf.size());
    }
}

TEST_CASE("compressed: damage inside compressed data stops reading without a crash", "[compression]") {
    const Bytes plain = manyPacketsPcap(20000);
    for (const std::string compression : {"gzip", "zstd"}) {
        Bytes compressed = compression == "gzip" ? gzipCompress(plain) : zstdCompress(plain);
        for (size_t i = compressed.size() / 2; i < compressed.size() / 2 + 64; ++i) {
            compressed[i] ^= 0x5a;
        }
        CAPTURE(compression);
        // Garbage may decode into plausible records before the decoder notices (at the latest by
        // the checksum at the end): either way reading ends in an error. zstd decodes a frame that
        // fits the buffer in one go and keeps nothing of it, so the error may come at open().
        try {
            auto reader = CaptureReader::openMemory("damaged", compressed);
            readAll(*reader);
            CHECK(reader->error() != nullptr);
        } catch (const CaptureError& error) {
            CHECK_THAT(error.what(), Catch::Contains("corrupt " + compression + " data"));
        }
    }
}

TEST_CASE("compressed: data after the gzip stream is ignored with a warning", "[compression]") {
    const Bytes plain = smallPcapng();
    Bytes compressed = gzipCompress(plain);
    compressed.insert(compressed.end(), 512, 0);  // zero padding, as some tape and block tools leave
    auto reader = CaptureReader::openMemory("padded.gz", compressed);
    CHECK(readAll(*reader) == readAllFromMemory(plain));
    REQUIRE(reader->warnings().size() == 1);
    CHECK_THAT(reader->warnings()[0].reason, Catch::Contains("ignored data after the end of the gzip stream"));
    CHECK(reader->warnings()[0].offset == plain.size());
}

TEST_CASE("compressed: compression without a capture inside", "[compression]") {
    CHECK_THROWS_WITH(CaptureReader::openMemory("empty.gz", gzipCompress({})),
                      Catch::Contains("empty file after gzip"));
    CHECK_THROWS_WITH(CaptureReader::openMemory("text.zst", zstdCompress(Bytes{'h', 'e', 'l', 'l', 'o'})),
                      Catch::Contains("magic 0x68656c6c"));
    CHECK_THROWS_WITH(CaptureReader::openMemory("bad.gz", Bytes{0x1f, 0x8b, 0x99, 0, 0, 0, 0, 0, 0, 0}),
                      Catch::Contains("corrupt gzip data at compressed byte"));
}
