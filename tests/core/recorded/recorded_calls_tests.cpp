// The system calls `record` writes into pcapng custom blocks, read back from files built byte by
// byte, and turned into the strace model the alignment reads.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "recorded/call_block.hpp"
#include "recorded/recorded_calls_reader.hpp"
#include "recorded/recorded_strace_log.hpp"

using namespace tcpscope;

namespace {

void put16(std::vector<uint8_t>& out, uint16_t value) {
    out.push_back(static_cast<uint8_t>(value));
    out.push_back(static_cast<uint8_t>(value >> 8));
}
void put32(std::vector<uint8_t>& out, uint32_t value) {
    put16(out, static_cast<uint16_t>(value));
    put16(out, static_cast<uint16_t>(value >> 16));
}
void put64(std::vector<uint8_t>& out, uint64_t value) {
    put32(out, static_cast<uint32_t>(value));
    put32(out, static_cast<uint32_t>(value >> 32));
}

void block(std::vector<uint8_t>& file, uint32_t type, const std::vector<uint8_t>& body) {
    const auto length = static_cast<uint32_t>(12 + (body.size() + 3) / 4 * 4);
    put32(file, type);
    put32(file, length);
    file.insert(file.end(), body.begin(), body.end());
    file.resize(file.size() + (4 - body.size() % 4) % 4, 0);
    put32(file, length);
}

// A section header naming `application` in shb_userappl (none if empty).
std::vector<uint8_t> sectionHeader(std::string_view application = kRecordApplication) {
    std::vector<uint8_t> body;
    put32(body, 0x1A2B3C4D);
    put16(body, 1);
    put16(body, 0);
    put64(body, UINT64_MAX);
    if (!application.empty()) {
        put16(body, 4);  // shb_userappl
        put16(body, static_cast<uint16_t>(application.size()));
        body.insert(body.end(), application.begin(), application.end());
        body.resize((body.size() + 3) / 4 * 4, 0);
        put32(body, 0);  // opt_endofopt
    }
    return body;
}

std::vector<uint8_t> customBody(uint32_t pen, uint16_t kind, uint32_t count, const std::vector<uint8_t>& payload) {
    std::vector<uint8_t> body;
    put32(body, pen);
    put16(body, kind);
    put16(body, 1);  // version
    put32(body, count);
    body.insert(body.end(), payload.begin(), payload.end());
    return body;
}

// One call of 120 bytes, as the BPF program lays it out: a write of 100 bytes on
// 127.0.0.1:40000 -> 127.0.0.1:8080 by pid 42 (thread 43), "proxy".
std::vector<uint8_t> writeCall(uint64_t enterNs, int64_t result) {
    std::vector<uint8_t> call;
    put64(call, enterNs);
    put64(call, enterNs + 5000);
    put64(call, static_cast<uint64_t>(result));
    put64(call, 100);
    put32(call, 42);
    put32(call, 43);
    put32(call, 7);  // fd
    put16(call, 1);  // write
    put16(call, 1);  // has socket
    put16(call, 2);  // AF_INET
    put16(call, 6);  // TCP
    put16(call, 40000);
    put16(call, 8080);
    const uint8_t loopback[16] = {127, 0, 0, 1};
    call.insert(call.end(), loopback, loopback + 16);
    call.insert(call.end(), loopback, loopback + 16);
    put32(call, 0);
    put32(call, 0);
    put32(call, 0);
    put32(call, 0);
    const char comm[16] = "proxy";
    call.insert(call.end(), comm, comm + 16);
    return call;
}

std::string writeFile(const std::vector<uint8_t>& bytes, const std::string& name) {
    const std::string path = (std::filesystem::temp_directory_path() / name).string();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
    return path;
}

}  // namespace

TEST_CASE("recorded calls: custom blocks read back with their clock relation and 4-tuples", "[recorded]") {
    std::vector<uint8_t> file;
    block(file, 0x0A0D0D0A, sectionHeader());
    std::vector<uint8_t> clock;
    put64(clock, 1'000'000'000);                  // monotonic
    put64(clock, 1'700'000'000'000'000'000ULL);  // realtime
    block(file, kCustomBlockType, customBody(kTcpscopePen, 1, 1, clock));
    // Another enterprise's custom block is skipped.
    block(file, kCustomBlockType, customBody(12345, 2, 1, writeCall(7, 7)));
    std::vector<uint8_t> calls = writeCall(1'000'000'000 + 2'000'000, 100);
    const std::vector<uint8_t> failed = writeCall(1'000'000'000 + 3'000'000, -11);  // EAGAIN
    calls.insert(calls.end(), failed.begin(), failed.end());
    block(file, kCustomBlockType, customBody(kTcpscopePen, 2, 2, calls));
    std::vector<uint8_t> summary;
    put64(summary, 2);
    put64(summary, 3);
    block(file, kCustomBlockType, customBody(kTcpscopePen, 3, 0, summary));
    const std::string path = writeFile(file, "tcpscope-recorded-calls.pcapng");

    std::string problem;
    const std::optional<RecordedCalls> read = readRecordedCalls(path, &problem);
    std::filesystem::remove(path);
    REQUIRE(read);
    CHECK(problem.empty());
    REQUIRE(read->calls.size() == 2);
    CHECK(read->lostEvents == 3);
    const RecordedCall& write = read->calls[0];
    CHECK(write.name == RecordedCallName::write);
    CHECK(write.pid == 42);
    CHECK(write.tid == 43);
    CHECK(write.command == "proxy");
    CHECK(write.hasSocket);
    CHECK(write.local.toString() == "127.0.0.1:40000");
    CHECK(write.remote.toString() == "127.0.0.1:8080");
    CHECK(read->realtimeNs(write.enterNs) == 1'700'000'000'002'000'000LL);

    const StraceLog log = straceLogOfRecordedCalls(*read, path);
    CHECK(log.format.timeBase == StraceTimeBase::Epoch);
    REQUIRE(log.records.size() == 2);
    const SyscallRecord& record = log.records[0];
    CHECK(record.kind == SyscallKind::Write);
    CHECK(record.tsNs == 1'700'000'000'002'000'000LL);
    CHECK(record.durationNs == 5000);
    CHECK(record.bytes == 100);
    CHECK(record.requestedBytes == 100);
    CHECK(record.pid == 43);
    const FdDecoration* decoration = log.decoration(record.fdDecoration);
    REQUIRE(decoration != nullptr);
    CHECK(decoration->text == "TCP:[127.0.0.1:40000->127.0.0.1:8080]");
    CHECK(decoration->isTcp());
    CHECK(log.records[1].returnKind == ReturnKind::Error);
    CHECK(log.records[1].errnoCode == 11);
    CHECK(log.records[1].fdDecoration == record.fdDecoration);
}

TEST_CASE("recorded calls: a cut block is said, a file without them has none", "[recorded]") {
    std::vector<uint8_t> file;
    block(file, 0x0A0D0D0A, sectionHeader());
    block(file, kCustomBlockType, customBody(kTcpscopePen, 2, 5, writeCall(1, 1)));  // says 5, holds 1
    std::string path = writeFile(file, "tcpscope-recorded-cut.pcapng");
    std::string problem;
    CHECK_FALSE(readRecordedCalls(path, &problem));
    CHECK(problem.find("cut short") != std::string::npos);

    // Only files whose section header names tcpscope-cli record are scanned.
    std::vector<uint8_t> other;
    block(other, 0x0A0D0D0A, sectionHeader("dumpcap"));
    block(other, kCustomBlockType, customBody(kTcpscopePen, 2, 1, writeCall(1, 1)));
    const std::string otherPath = writeFile(other, "tcpscope-recorded-other.pcapng");
    CHECK_FALSE(readRecordedCalls(otherPath));
    std::filesystem::remove(otherPath);

    std::vector<uint8_t> plain;
    block(plain, 0x0A0D0D0A, sectionHeader());
    const std::string plainPath = writeFile(plain, "tcpscope-recorded-none.pcapng");
    CHECK_FALSE(readRecordedCalls(plainPath));
    CHECK_FALSE(readRecordedCalls(std::string(TCPSCOPE_SOURCE_DIR) + "/README.md"));
    std::filesystem::remove(path);
    std::filesystem::remove(plainPath);
}
