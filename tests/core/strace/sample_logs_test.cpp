// The strace logs recorded by samples/record.sh next to the sample captures. Counts are checked
// against the files' own text (what grep says), so re-recording the samples keeps these valid.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "core/strace/strace_test_helpers.hpp"
#include "strace/errno_names.hpp"

using namespace tcpscope;
using tcpscope::testing::countLinesWith;
using tcpscope::testing::readText;
using tcpscope::testing::recordsNamed;
using tcpscope::testing::recordsOfKind;
using tcpscope::testing::sourcePath;

namespace {

std::string samplePath(const std::string& name) {
    return sourcePath("samples/" + name);
}

/// Lines holding both needles.
size_t countLinesWithBoth(std::string_view text, std::string_view first, std::string_view second) {
    size_t count = 0;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view line = text.substr(start, end - start);
        if (line.find(first) != std::string_view::npos && line.find(second) != std::string_view::npos) {
            ++count;
        }
        start = end + 1;
    }
    return count;
}

/// The proxy writes every frame as a 128-byte header and a 35-byte body, two send() calls on the
/// same socket, and then waits in epoll_wait: the write-write-read pattern behind the Nagle stall.
void checkProxyPattern(const StraceLog& log, const std::string& text) {
    const auto sends = recordsNamed(log, "sendto");
    REQUIRE(sends.size() == countLinesWith(text, " sendto("));
    REQUIRE_FALSE(sends.empty());
    CHECK(recordsNamed(log, "recvfrom").size() == countLinesWith(text, " recvfrom("));
    CHECK(recordsNamed(log, "epoll_wait").size() == countLinesWith(text, " epoll_wait("));
    for (const int32_t pid : log.pids()) {
        const auto indexes = log.recordIndexesOf(pid);
        for (size_t position = 0; position < indexes.size(); ++position) {
            const SyscallRecord& record = log.records[indexes[position]];
            if (log.nameOf(record) != "sendto") {
                continue;
            }
            CHECK(record.bytes == record.requestedBytes);
            const bool header = record.bytes == 128;
            CHECK((header || record.bytes == 35));
            if (header) {
                // The body goes next, on the same fd, before the process waits again.
                REQUIRE(position + 1 < indexes.size());
                const SyscallRecord& body = log.records[indexes[position + 1]];
                CHECK(log.nameOf(body) == "sendto");
                CHECK(body.bytes == 35);
                CHECK(body.fd == record.fd);
                CHECK(body.tsNs >= record.tsNs);
            }
        }
    }
    // With -yy every send names its connection; the backend is 127.0.0.1:3306.
    const auto toBackend = std::count_if(sends.begin(), sends.end(), [&log](const SyscallRecord& send) {
        const FdDecoration* decoration = log.decoration(send.fdDecoration);
        return decoration != nullptr && decoration->hasRemote && decoration->remote.toString() == "127.0.0.1:3306";
    });
    CHECK(toBackend == static_cast<std::ptrdiff_t>(sends.size() / 2));
    const auto connects = recordsOfKind(log, SyscallKind::Connect);
    REQUIRE(connects.size() == countLinesWith(text, " connect("));
    CHECK(connects.front().address.toString() == "127.0.0.1:3306");
    CHECK(connects.front().succeeded());
    // Every ready fd epoll reported is a socket the proxy accepted or connected.
    for (const SyscallRecord& wait : recordsNamed(log, "epoll_wait")) {
        for (const ReadyFd& ready : log.readyFdsOf(wait)) {
            CHECK(ready.fd >= 3);
            CHECK(ready.events == kReadable);
        }
    }
}

bool setsNodelay(const StraceLog& log) {
    const auto options = recordsOfKind(log, SyscallKind::SetSockOpt);
    return std::any_of(options.begin(), options.end(), [](const SyscallRecord& r) {
        return r.option == SocketOption::TcpNodelay && r.optionValue == 1 && r.succeeded();
    });
}

}  // namespace

TEST_CASE("every sample strace log parses without a line left over", "[strace][samples]") {
    size_t logs = 0;
    for (const auto& entry : std::filesystem::directory_iterator(sourcePath("samples"))) {
        const std::string name = entry.path().filename().string();
        if (name.find(".strace") == std::string::npos) {
            continue;
        }
        CAPTURE(name);
        ++logs;
        const std::string text = readText(entry.path().string());
        const StraceLog log = parseStraceFile(entry.path().string());
        INFO((log.unparsedExamples.empty() ? std::string() : log.unparsedExamples[0].text));
        CHECK(log.stats.unparsedLines == 0);
        CHECK(log.stats.lines == countLinesWith(text, ""));
        CHECK(log.records.size() == log.stats.lines - log.stats.joinedCalls - log.stats.noticeLines);
        CHECK(log.format.durations);
        // proxy-nagle-noy and proxy-nagle-late were recorded without -y/-yy on purpose.
        const bool withoutY = name.starts_with("proxy-nagle-noy.") || name.starts_with("proxy-nagle-late.");
        CHECK(log.format.fdStyle == (withoutY ? StraceFdStyle::None : StraceFdStyle::Endpoints));
        CHECK(recordsOfKind(log, SyscallKind::ProcessExit).size() == countLinesWith(text, "+++ "));
    }
    CHECK(logs >= 4);
}

TEST_CASE("proxy-nagle: header and body written separately, TCP_NODELAY never set", "[strace][samples]") {
    const std::string text = readText(samplePath("proxy-nagle.strace"));
    const StraceLog log = parseStraceFile(samplePath("proxy-nagle.strace"));
    CHECK(log.format.describe() == "-f -o FILE -tt -T -yy");
    checkProxyPattern(log, text);
    CHECK_FALSE(setsNodelay(log));
    const auto accepts = recordsOfKind(log, SyscallKind::Accept);
    REQUIRE(accepts.size() == countLinesWith(text, " accept4("));
    const FdDecoration* listener = log.decoration(accepts.at(0).fdDecoration);
    REQUIRE(listener != nullptr);
    CHECK(listener->local.toString() == "127.0.0.1:3307");
}

TEST_CASE("proxy-nodelay: the same calls with TCP_NODELAY set on both sockets", "[strace][samples]") {
    const std::string text = readText(samplePath("proxy-nodelay.strace"));
    const StraceLog log = parseStraceFile(samplePath("proxy-nodelay.strace"));
    checkProxyPattern(log, text);
    CHECK(setsNodelay(log));
    CHECK(countLinesWith(text, "TCP_NODELAY, [1]") == 2);
    const auto options = recordsOfKind(log, SyscallKind::SetSockOpt);
    const auto nodelayOnBackend = std::count_if(options.begin(), options.end(), [&log](const SyscallRecord& r) {
        const FdDecoration* decoration = log.decoration(r.fdDecoration);
        return r.option == SocketOption::TcpNodelay && decoration != nullptr && decoration->remote.port == 3306;
    });
    CHECK(nodelayOnBackend == 1);
}

TEST_CASE("proxy-nagle-ttt: epoch timestamps", "[strace][samples]") {
    const std::string text = readText(samplePath("proxy-nagle-ttt.strace"));
    const StraceLog log = parseStraceFile(samplePath("proxy-nagle-ttt.strace"));
    CHECK(log.format.timeBase == StraceTimeBase::Epoch);
    CHECK(log.format.describe() == "-f -o FILE -ttt -T -yy");
    checkProxyPattern(log, text);
    CHECK(log.records.front().tsNs > int64_t{1'500'000'000} * 1'000'000'000);
}

TEST_CASE("proxy-nagle-ff: one file per process, children named by their file", "[strace][samples][files]") {
    std::vector<std::string> paths;
    for (const auto& entry : std::filesystem::directory_iterator(sourcePath("samples"))) {
        if (entry.path().filename().string().rfind("proxy-nagle-ff.strace.", 0) == 0) {
            paths.push_back(entry.path().string());
        }
    }
    REQUIRE(paths.size() >= 2);
    const auto groups = groupStraceFiles(paths);
    REQUIRE(groups.size() == 1);
    const StraceLog log = parseStraceFiles(groups[0].paths);
    CHECK(log.stats.unparsedLines == 0);
    CHECK(log.format.pidStyle == StracePidStyle::FileName);
    REQUIRE(log.pids().size() == paths.size());
    std::string allText;
    for (const std::string& path : paths) {
        allText += readText(path);
        const auto name = parseStraceFileName(path);
        REQUIRE(name.has_value());
        CHECK_FALSE(log.recordIndexesOf(name->pid).empty());
    }
    checkProxyPattern(log, allText);
    // The parent accepts and forks; each child's pid is one of the files.
    const auto clones = recordsOfKind(log, SyscallKind::ProcessCreate);
    REQUIRE(clones.size() == paths.size() - 1);
    for (const SyscallRecord& clone : clones) {
        CHECK_FALSE(log.recordIndexesOf(static_cast<int32_t>(clone.returnValue)).empty());
        CHECK(clone.tsNs < log.records[log.recordIndexesOf(static_cast<int32_t>(clone.returnValue)).front()].tsNs);
    }
}

TEST_CASE("churn-exhaustion: the connects that failed with EADDRNOTAVAIL", "[strace][samples]") {
    const std::string text = readText(samplePath("churn-exhaustion.strace"));
    const StraceLog log = parseStraceFile(samplePath("churn-exhaustion.strace"));
    const auto connects = recordsOfKind(log, SyscallKind::Connect);
    REQUIRE(connects.size() == countLinesWith(text, " connect("));
    const auto failed = std::count_if(connects.begin(), connects.end(), [](const SyscallRecord& r) {
        return r.returnKind == ReturnKind::Error && errnoName(r.errnoCode) == "EADDRNOTAVAIL";
    });
    CHECK(failed == static_cast<std::ptrdiff_t>(countLinesWithBoth(text, " connect(", "EADDRNOTAVAIL")));
    CHECK(failed > 0);
    // Each successful connect is followed by getsockname, whose port is the fd's local port (the
    // scenario reuses ports, so the same port comes back).
    const auto names = recordsOfKind(log, SyscallKind::GetSockName);
    CHECK(names.size() == countLinesWith(text, " getsockname("));
    for (const SyscallRecord& name : names) {
        const FdDecoration* decoration = log.decoration(name.fdDecoration);
        REQUIRE(decoration != nullptr);
        CHECK(name.address.port == decoration->local.port);
        CHECK(name.address.port != 0);
    }
    for (const SyscallRecord& connect : connects) {
        CHECK(connect.address.toString() == "127.0.0.1:9000");
    }
}
