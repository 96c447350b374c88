// The on-disk spool of the ClickHouse sink: order kept across runs, bounded, one process at a time.
#include "sinks/batch_spool.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/export_fixtures.hpp"

namespace {

namespace fs = std::filesystem;
using tcpscope::BatchSpool;
using tcpscope::RecordType;

using tcpscope::test::TempDir;

}  // namespace

TEST_CASE("the spool gives batches back in order, also to the next run", "[export][spool]") {
    TempDir dir("spool");
    {
        BatchSpool spool(dir.path, 1 << 20);
        REQUIRE(spool.add(RecordType::Flow, "a-1", 2, "{\"x\":1}\n{\"x\":2}\n"));
        REQUIRE(spool.add(RecordType::Finding, "a-2", 1, "{\"y\":1}\n"));
        CHECK(spool.rows() == 3);
        CHECK(spool.oldest().id == "a-1");
        spool.markOldestTried();
        CHECK(spool.oldest().tried);
    }
    std::ofstream(dir.path / "0000000000000099.flow.1.z-9.ready.tmp") << "half";  // a crash while writing
    BatchSpool spool(dir.path, 1 << 20);
    CHECK(spool.rowsFromEarlierRuns() == 3);
    REQUIRE(spool.batches() == 2);
    CHECK(spool.oldest().id == "a-1");
    CHECK(spool.oldest().tried);  // still to be looked up before it is sent again
    CHECK(spool.read(spool.oldest()) == "{\"x\":1}\n{\"x\":2}\n");
    REQUIRE(spool.add(RecordType::Series, "b-1", 1, "{}\n"));
    spool.removeOldest();
    CHECK(spool.oldest().id == "a-2");
    CHECK(spool.oldest().type == RecordType::Finding);
    spool.removeOldest();
    CHECK(spool.oldest().id == "b-1");
    CHECK_FALSE(fs::exists(dir.path / "0000000000000099.flow.1.z-9.ready.tmp"));
}

TEST_CASE("the spool refuses a batch past its limit and a second process", "[export][spool]") {
    TempDir dir("spool");
    BatchSpool spool(dir.path, 10);
    CHECK(spool.add(RecordType::Flow, "a-1", 1, "12345678\n"));
    CHECK_FALSE(spool.add(RecordType::Flow, "a-2", 1, "12345678\n"));
    CHECK(spool.batches() == 1);
    CHECK(spool.bytes() == 9);
    CHECK_THROWS_WITH(BatchSpool(dir.path, 10), Catch::Contains("in use by another export"));
}
