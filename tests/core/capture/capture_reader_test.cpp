#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <thread>

#include "capture/capture_reader.hpp"
#include "core/capture/capture_builder.hpp"

using namespace tcpscope;
using namespace tcpscope::testing;

TEST_CASE("capture reader: the format is recognised by magic, never by name", "[detect]") {
    const Bytes pcap = PcapBuilder().record(1, 2, sampleFrame(0)).bytes();
    const Bytes pcapng =
        PcapngBuilder().sectionHeader().interfaceDescription(1).enhancedPacket(0, 1, sampleFrame(0)).bytes();
    auto reader = CaptureReader::open(writeTempFile("looks-like.pcapng", pcap).string());
    CHECK(reader->format().container == "pcap");
    reader = CaptureReader::open(writeTempFile("looks-like.pcap.gz", pcapng).string());
    CHECK(reader->format().container == "pcapng");
    CHECK(reader->format().compression == "none");
    reader = CaptureReader::open(writeTempFile("no-extension", zstdCompress(pcapng)).string());
    CHECK(reader->format().compression == "zstd");
}

TEST_CASE("capture reader: what is not a capture is refused with its magic", "[detect]") {
    const Bytes text = {'G', 'E', 'T', ' ', '/', ' ', 'H', 'T', 'T', 'P'};
    try {
        CaptureReader::open(writeTempFile("request.txt", text).string());
        FAIL("opened a text file");
    } catch (const CaptureError& error) {
        CHECK(error.problem().reason == "not a pcap or pcapng file (magic 0x47455420)");
        CHECK(error.problem().offset == 0);
        CHECK_THAT(error.what(), Catch::Contains("request.txt"));
    }
    CHECK_THROWS_WITH(CaptureReader::openMemory("empty", {}), Catch::Contains("empty file"));
    CHECK_THROWS_WITH(CaptureReader::openMemory("tiny", {0xa1, 0xb2}), Catch::Contains("only 2 bytes"));
    CHECK_THROWS_WITH(CaptureReader::open("/nonexistent/file.pcap"), Catch::Contains("No such file or directory"));
    CHECK_THROWS_WITH(CaptureReader::open("/tmp"), Catch::Contains("directory"));
}

TEST_CASE("capture reader: standard input through a pipe", "[pipe]") {
    Bytes capture;
    {
        PcapBuilder builder;
        for (int i = 0; i < 20000; ++i) {
            builder.record(static_cast<uint32_t>(i), 0, sampleFrame(i));
        }
        capture = builder.bytes();
    }
    std::signal(SIGPIPE, SIG_IGN);
    for (const std::string compression : {"none", "gzip", "zstd"}) {
        CAPTURE(compression);
        const Bytes sent = compression == "gzip"   ? gzipCompress(capture, 2)
                           : compression == "zstd" ? zstdCompress(capture, 2)
                                                   : capture;
        int pipeEnds[2];
        REQUIRE(::pipe(pipeEnds) == 0);
        const int savedStdin = ::dup(STDIN_FILENO);
        REQUIRE(::dup2(pipeEnds[0], STDIN_FILENO) == STDIN_FILENO);
        ::close(pipeEnds[0]);
        // The writer trickles the bytes in odd-sized pieces, as a live tcpdump would.
        std::thread writer([&sent, fd = pipeEnds[1]] {
            size_t written = 0;
            size_t piece = 1;
            while (written < sent.size()) {
                const size_t count = std::min(piece, sent.size() - written);
                const ssize_t done = ::write(fd, sent.data() + written, count);
                if (done <= 0) {
                    break;
                }
                written += static_cast<size_t>(done);
                piece = piece * 3 % 70001 + 1;
            }
            ::close(fd);
        });
        std::vector<PacketCopy> packets;
        std::string format;
        uint64_t fileSize = 1;
        uint64_t consumed = 0;
        try {
            auto reader = CaptureReader::open("-");
            format = reader->format().compression;
            packets = readAll(*reader);
            fileSize = reader->fileSize();
            consumed = reader->bytesConsumed();
        } catch (...) {
            ::dup2(savedStdin, STDIN_FILENO);  // closes the pipe, so the writer stops
            writer.join();
            throw;
        }
        writer.join();
        ::dup2(savedStdin, STDIN_FILENO);
        ::close(savedStdin);
        CHECK(format == compression);
        CHECK(fileSize == 0);
        CHECK(consumed == sent.size());
        CHECK(packets == readAllFromMemory(capture));
    }
}
