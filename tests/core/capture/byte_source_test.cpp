#include <catch2/catch.hpp>

#include <numeric>

#include "capture/byte_source.hpp"
#include "core/capture/capture_builder.hpp"

using namespace tcpscope;
using namespace tcpscope::testing;

namespace {
Bytes countingBytes(size_t count) {
    Bytes bytes(count);
    for (size_t i = 0; i < count; ++i) {
        bytes[i] = static_cast<uint8_t>(i * 7 + i / 251);
    }
    return bytes;
}
}  // namespace

TEST_CASE("byte source: contiguous runs across read chunks, with offsets", "[source]") {
    const Bytes content = countingBytes((size_t{9} << 20) + 12345);
    for (const std::string compression : {"none", "gzip", "zstd"}) {
        CAPTURE(compression);
        const Bytes file = compression == "gzip"   ? gzipCompress(content, 2)
                           : compression == "zstd" ? zstdCompress(content, 3)
                                                   : content;
        ByteSource source = ByteSource::openFile(writeTempFile("source.bin", file).string());
        CHECK(compressionName(source.compression()) == compression);
        // Runs of growing sizes, some larger than one read chunk, must come out in order.
        size_t position = 0;
        size_t run = 1;
        while (position < content.size()) {
            const size_t want = std::min(run, content.size() - position);
            const uint8_t* bytes = source.ensure(want);
            REQUIRE(bytes != nullptr);
            REQUIRE(source.offset() == position);
            REQUIRE(std::equal(bytes, bytes + want, content.begin() + static_cast<std::ptrdiff_t>(position)));
            source.consume(want);
            position += want;
            run = run * 5 % 3'000'017 + 3;
        }
        CHECK(source.ensure(1) == nullptr);
        CHECK(source.available() == 0);
        CHECK(source.bytesConsumed() == file.size());
        CHECK(source.warnings().empty());
        CHECK(source.error() == nullptr);
    }
}

TEST_CASE("byte source: the end of the stream leaves the partial bytes visible", "[source]") {
    ByteSource source = ByteSource::openMemory("ten", countingBytes(10));
    REQUIRE(source.ensure(4) != nullptr);
    source.consume(4);
    CHECK(source.ensure(7) == nullptr);
    CHECK(source.available() == 6);
    CHECK(source.offset() == 4);
    CHECK(source.ensure(6) != nullptr);
}

TEST_CASE("byte source: requests beyond the supported maximum fail instead of allocating", "[source]") {
    ByteSource source = ByteSource::openFile(writeTempFile("small.bin", countingBytes(100)).string());
    CHECK(source.ensure(ByteSource::kMaxContiguousBytes + 1) == nullptr);
    REQUIRE(source.error() != nullptr);
    CHECK_THAT(source.error()->reason, Catch::Contains("larger than"));
    CHECK(source.ensure(1) == nullptr);
}

TEST_CASE("byte source: warnings are bounded", "[source]") {
    ByteSource source = ByteSource::openMemory("noisy", {});
    for (int i = 0; i < 1000; ++i) {
        source.warn(static_cast<uint64_t>(i), "same again");
    }
    CHECK(source.warnings().size() == 101);
    CHECK_THAT(source.warnings().back().reason, Catch::Contains("too many warnings"));
    source.fail(5, "first");
    source.fail(6, "second");
    CHECK(source.error()->reason == "first");
}
