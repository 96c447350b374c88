// Logs recorded with Debian 12's strace 6.1 from data/loopback_calls.c (IPv4 and IPv6 loopback
// connections with a thread, non-blocking connect, poll/select/epoll, writev/readv/sendmsg/recvmsg,
// socket options, failed connects and binds, a forked child and a killed one), once per flag
// combination. Every log holds the same calls, so they must all parse to the same records.
#include <sys/socket.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "core/strace/strace_test_helpers.hpp"
#include "strace/errno_names.hpp"

using namespace tcpscope;
using tcpscope::testing::countLinesWith;
using tcpscope::testing::readText;
using tcpscope::testing::recordsNamed;
using tcpscope::testing::recordsOfKind;
using tcpscope::testing::sourcePath;

namespace {

std::string dataPath(const std::string& name) {
    return sourcePath("tests/core/strace/data/" + name);
}

struct RecordedLog {
    const char* file;
    StraceTimeBase timeBase;
    uint8_t fractionDigits;
    bool durations;
    StracePidStyle pidStyle;
    StraceFdStyle fdStyle;
    const char* describe;
};

constexpr RecordedLog kFollowedLogs[] = {
    {"terminal-f-tt-T-yy.strace", StraceTimeBase::TimeOfDay, 6, true, StracePidStyle::Bracketed,
     StraceFdStyle::Endpoints, "-f -tt -T -yy"},
    {"f-o-tt-T-yy.strace", StraceTimeBase::TimeOfDay, 6, true, StracePidStyle::Column, StraceFdStyle::Endpoints,
     "-f -o FILE -tt -T -yy"},
    {"f-o-tt-T-yy-s8.strace", StraceTimeBase::TimeOfDay, 6, true, StracePidStyle::Column, StraceFdStyle::Endpoints,
     "-f -o FILE -tt -T -yy"},
    {"f-o-t.strace", StraceTimeBase::TimeOfDay, 0, false, StracePidStyle::Column, StraceFdStyle::None, "-f -o FILE -t"},
    {"f-o-ttt-T-yy.strace", StraceTimeBase::Epoch, 6, true, StracePidStyle::Column, StraceFdStyle::Endpoints,
     "-f -o FILE -ttt -T -yy"},
    {"f-o-unix-ns-yy.strace", StraceTimeBase::Epoch, 9, false, StracePidStyle::Column, StraceFdStyle::Endpoints,
     "-f -o FILE --timestamps=unix,ns -yy"},
    {"f-o-r-y.strace", StraceTimeBase::Relative, 6, false, StracePidStyle::Column, StraceFdStyle::Paths,
     "-f -o FILE -r -y"},
    {"f-o-plain.strace", StraceTimeBase::None, 0, false, StracePidStyle::Column, StraceFdStyle::None, "-f -o FILE"},
};

/// The calls of loopback_calls.c, the same in every log recorded with -f.
void checkLoopbackCalls(const StraceLog& log, bool decorated) {
    // Four processes: the program, its server thread, a child that exits 3, a child killed.
    REQUIRE(log.pids().size() == 4);
    const auto exits = recordsOfKind(log, SyscallKind::ProcessExit);
    REQUIRE(exits.size() == 4);
    CHECK(std::count_if(exits.begin(), exits.end(), [](const SyscallRecord& r) {
              return r.has(kKilled) && signalName(r.signal) == "SIGKILL";
          }) == 1);
    CHECK(std::count_if(exits.begin(), exits.end(),
                        [](const SyscallRecord& r) { return r.succeeded() && r.returnValue == 3; }) == 1);
    const auto signals = recordsOfKind(log, SyscallKind::Signal);
    REQUIRE(signals.size() == 2);
    CHECK(signalName(signals[0].signal) == "SIGCHLD");

    const auto sockets = recordsOfKind(log, SyscallKind::Socket);
    REQUIRE(sockets.size() == 7);
    CHECK(std::count_if(sockets.begin(), sockets.end(), [](const SyscallRecord& r) { return r.family == AF_INET6; }) ==
          2);
    CHECK(std::count_if(sockets.begin(), sockets.end(), [](const SyscallRecord& r) { return r.has(kNonBlocking); }) ==
          1);

    const auto connects = recordsOfKind(log, SyscallKind::Connect);
    REQUIRE(connects.size() == 4);
    CHECK(errnoName(connects[0].errnoCode) == "EINPROGRESS");
    CHECK(connects[0].address.toString() == "127.0.0.1:47311");
    CHECK(connects[1].succeeded());
    CHECK(connects[1].address.toString() == "[::1]:47312");
    CHECK(errnoName(connects[2].errnoCode) == "ECONNREFUSED");
    CHECK(connects[3].family == AF_UNIX);

    const auto binds = recordsOfKind(log, SyscallKind::Bind);
    REQUIRE(binds.size() == 3);
    CHECK(errnoName(binds[2].errnoCode) == "EADDRNOTAVAIL");
    CHECK(binds[2].address.toString() == "192.0.2.1:5000");

    const auto listens = recordsOfKind(log, SyscallKind::Listen);
    REQUIRE(listens.size() == 2);
    CHECK(listens[0].backlog == 8);

    // Accepts on the thread; the peer is the client's ephemeral port.
    const auto accepts = recordsOfKind(log, SyscallKind::Accept);
    REQUIRE(accepts.size() == 2);
    CHECK(accepts[0].address.address.toString() == "127.0.0.1");
    CHECK(accepts[1].address.address.toString() == "::1");
    CHECK(accepts[0].pid != connects[0].pid);
    CHECK(accepts[0].otherFd >= 0);

    const auto options = recordsOfKind(log, SyscallKind::SetSockOpt);
    const auto countOption = [&options](SocketOption option) {
        return std::count_if(options.begin(), options.end(), [option](const SyscallRecord& r) {
            return r.option == option && r.optionValue == (option == SocketOption::SoLinger ? 0 : 1);
        });
    };
    CHECK(countOption(SocketOption::TcpNodelay) == 1);
    CHECK(countOption(SocketOption::TcpCork) == 2);
    CHECK(countOption(SocketOption::TcpQuickack) == 1);
    CHECK(countOption(SocketOption::SoReuseaddr) == 2);
    CHECK(countOption(SocketOption::SoReuseport) == 1);
    CHECK(countOption(SocketOption::SoLinger) == 1);
    const auto getsockopt = recordsOfKind(log, SyscallKind::GetSockOpt);
    REQUIRE(getsockopt.size() == 1);
    CHECK(getsockopt[0].optionValue == 1);

    // Every wait reported the one connection ready.
    const auto waits = recordsOfKind(log, SyscallKind::Wait);
    REQUIRE(waits.size() == 7);  // pselect6 x2, ppoll, epoll_wait, epoll_pwait, epoll_pwait2, poll
    for (const SyscallRecord& wait : waits) {
        CAPTURE(log.nameOf(wait));
        CHECK(wait.returnValue == 1);
        CHECK(log.readyFdsOf(wait).size() == 1);
    }
    const auto epollWait = recordsNamed(log, "epoll_wait");
    REQUIRE(epollWait.size() == 1);
    CHECK(log.readyFdsOf(epollWait[0])[0].fd == accepts[0].otherFd);

    const auto writev = recordsNamed(log, "writev");
    REQUIRE(writev.size() == 1);
    CHECK(writev[0].bytes == 43);
    CHECK(writev[0].requestedBytes == 43);
    const auto readv = recordsNamed(log, "readv");
    REQUIRE(readv.size() == 1);
    CHECK(readv[0].requestedBytes == 104);
    const auto sendmsg = recordsNamed(log, "sendmsg");
    REQUIRE(sendmsg.size() == 1);
    CHECK(sendmsg[0].bytes == 7);
    const auto sendto = recordsNamed(log, "sendto");
    REQUIRE(sendto.size() == 3);
    CHECK(sendto[0].bytes == 26);  // "pong \"quoted\" {brace} [x]\n", whatever -s cut of it

    // The client's 43-byte write, on the socket connect() opened.
    const auto writes = recordsNamed(log, "write");
    REQUIRE_FALSE(writes.empty());
    const auto requestWrite =
        std::find_if(writes.begin(), writes.end(), [](const SyscallRecord& r) { return r.bytes == 43; });
    REQUIRE(requestWrite != writes.end());
    CHECK(requestWrite->fd == connects[0].fd);
    if (decorated) {
        const FdDecoration* decoration = log.decoration(requestWrite->fdDecoration);
        REQUIRE(decoration != nullptr);
        if (decoration->isTcp()) {
            CHECK(decoration->remote.toString() == "127.0.0.1:47311");
            CHECK(decoration->local.port == accepts[0].address.port);
        }
    }
}

}  // namespace

TEST_CASE("strace 6.1 logs of the same program parse to the same calls in every format", "[strace][recorded]") {
    for (const RecordedLog& expected : kFollowedLogs) {
        CAPTURE(expected.file);
        const std::string text = readText(dataPath(expected.file));
        const StraceLog log = parseStraceFile(dataPath(expected.file));
        INFO((log.unparsedExamples.empty() ? std::string() : log.unparsedExamples[0].text));
        CHECK(log.stats.unparsedLines == 0);
        CHECK(log.stats.lines == countLinesWith(text, ""));
        CHECK(log.stats.joinedCalls == countLinesWith(text, "resumed>"));
        CHECK(log.stats.unfinishedNeverResumed == 0);
        CHECK(log.stats.resumedWithoutStart == 0);
        CHECK(log.format.timeBase == expected.timeBase);
        CHECK(log.format.fractionDigits == expected.fractionDigits);
        CHECK(log.format.durations == expected.durations);
        CHECK(log.format.pidStyle == expected.pidStyle);
        CHECK(log.format.fdStyle == expected.fdStyle);
        CHECK(log.format.describe() == expected.describe);
        // One record per call, signal and exit; strace's own messages are none.
        CHECK(log.records.size() == log.stats.lines - log.stats.joinedCalls - log.stats.noticeLines);
        CHECK(std::is_sorted(log.records.begin(), log.records.end(),
                             [](const SyscallRecord& a, const SyscallRecord& b) { return a.tsNs < b.tsNs; }));
        checkLoopbackCalls(log, expected.fdStyle != StraceFdStyle::None);
    }
}

TEST_CASE("the terminal log: three attach messages, one splitting each clone line", "[strace][recorded]") {
    const StraceLog log = parseStraceFile(dataPath("terminal-f-tt-T-yy.strace"));
    CHECK(log.stats.noticeLines == 3);
    // Before the thread started and after the children ended, lines carry no pid; they are the
    // program's own.
    const auto sockets = recordsOfKind(log, SyscallKind::Socket);
    REQUIRE(sockets.size() == 7);
    for (const SyscallRecord& socket : sockets) {
        CHECK(socket.pid == sockets[0].pid);
    }
    CHECK(sockets.front().has(kPidInferred));
    CHECK_FALSE(sockets[2].has(kPidInferred));
    const auto clones = recordsOfKind(log, SyscallKind::ProcessCreate);
    REQUIRE(clones.size() == 3);
    CHECK(clones[0].has(kThread));
    CHECK(clones[0].has(kSharesFdTable));
    CHECK(clones[1].returnValue > 0);
    for (const SyscallRecord& clone : clones) {
        CHECK(clone.pid == sockets[0].pid);
        CHECK(clone.durationNs > 0);
    }
}

TEST_CASE("the -ff files of one run become one log with a pid per file", "[strace][recorded][files]") {
    const std::vector<std::string> paths = {dataPath("ff-tt-T-y.strace.24783"), dataPath("ff-tt-T-y.strace.24774"),
                                            dataPath("ff-tt-T-y.strace.24775"), dataPath("ff-tt-T-y.strace.24782")};
    const auto groups = groupStraceFiles(paths);
    REQUIRE(groups.size() == 1);
    const StraceLog log = parseStraceFiles(groups[0].paths);
    CHECK(log.stats.unparsedLines == 0);
    CHECK(log.pids() == std::vector<int32_t>{24774, 24775, 24782, 24783});
    CHECK(log.format.pidStyle == StracePidStyle::FileName);
    CHECK(log.format.describe() == "-ff -o NAME -tt -T -y");
    REQUIRE(log.files.size() == 4);
    CHECK(log.files[0].defaultPid == 24774);
    for (const SyscallRecord& record : log.records) {
        CHECK_FALSE(record.has(kPidInferred));
    }
    checkLoopbackCalls(log, true);
    // The thread's file starts after the parent's first line: records merge in time order.
    CHECK(std::is_sorted(log.records.begin(), log.records.end(),
                         [](const SyscallRecord& a, const SyscallRecord& b) { return a.tsNs < b.tsNs; }));
    CHECK(recordsOfKind(log, SyscallKind::Accept).at(0).pid == 24775);
}

TEST_CASE("a single process traced without -f: no pid on any line, strings cut by -s 8", "[strace][recorded]") {
    const StraceLog log = parseStraceFile(dataPath("single-tt-yy-s8.strace"));
    CHECK(log.stats.unparsedLines == 0);
    CHECK(log.format.pidStyle == StracePidStyle::None);
    CHECK(log.pids() == std::vector<int32_t>{0});
    CHECK(log.records.size() == log.stats.lines);
    const auto write = recordsNamed(log, "write");
    const auto request = std::find_if(write.begin(), write.end(), [](const SyscallRecord& r) { return r.bytes == 43; });
    REQUIRE(request != write.end());
    CHECK(request->requestedBytes == 43);

    StraceParseOptions options;
    options.defaultPid = 777;
    CHECK(parseStraceFile(dataPath("single-tt-yy-s8.strace"), options).pids() == std::vector<int32_t>{777});
}

TEST_CASE("the -r log's deltas add up to the run's length", "[strace][recorded][time]") {
    const StraceLog relative = parseStraceFile(dataPath("f-o-r-y.strace"));
    const StraceLog epoch = parseStraceFile(dataPath("f-o-ttt-T-yy.strace"));
    const auto span = [](const StraceLog& log) { return log.records.back().tsNs - log.records.front().tsNs; };
    // Two runs of the same program: both last about 0.4 s (a 200 ms poll twice and a 20 ms sleep).
    CHECK(span(relative) > 300'000'000);
    CHECK(span(relative) < 2'000'000'000);
    CHECK(span(epoch) > 300'000'000);
    CHECK(span(epoch) < 2'000'000'000);
}
