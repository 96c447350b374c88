// Whole logs: joining split calls across other pids' lines, pids of unprefixed lines, clocks,
// ordering, tolerance of lines that are not strace output, options and file names.
#include <catch2/catch.hpp>
#include <string>

#include "core/strace/strace_test_helpers.hpp"
#include "strace/errno_names.hpp"
#include "strace/record_order.hpp"
#include "strace/strace_file_name.hpp"

using namespace tcpscope;
using tcpscope::testing::recordsNamed;

namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kSecond = 1'000 * kMs;

}  // namespace

TEST_CASE("unfinished calls join their resumed halves across other pids' lines", "[strace][log][split]") {
    const StraceLog log = parseStraceText(
        R"(24760 03:25:24.838720 setsockopt(5<TCP:[127.0.0.1:39284->127.0.0.1:47311]>, SOL_SOCKET, SO_LINGER, {l_onoff=1, l_linger=0}, 8 <unfinished ...>
24761 03:25:24.838737 epoll_ctl(7<anon_inode:[eventpoll]>, EPOLL_CTL_ADD, 6<TCP:[127.0.0.1:47311->127.0.0.1:39284]>, {events=EPOLLIN, data={u32=6, u64=6}} <unfinished ...>
24760 03:25:24.838764 <... setsockopt resumed>) = 0 <0.000033>
24761 03:25:24.838774 <... epoll_ctl resumed>) = 0 <0.000019>
24761 03:25:24.838801 epoll_wait(7<anon_inode:[eventpoll]>,  <unfinished ...>
24760 03:25:24.838850 write(5<TCP:[127.0.0.1:39284->127.0.0.1:47311]>, "hello world, this is a longer re"..., 43) = 43 <0.000012>
24760 03:25:24.838882 getsockopt(5<TCP:[127.0.0.1:39284->127.0.0.1:47311]>, SOL_TCP, TCP_NODELAY,  <unfinished ...>
24760 03:25:24.838900 <... getsockopt resumed>[1], [4]) = 0 <0.000010>
24761 03:25:25.042305 <... epoll_wait resumed>[{events=EPOLLIN, data={u32=6, u64=6}}], 4, 1000) = 1 <0.203480>
)");
    CHECK(log.stats.unparsedLines == 0);
    CHECK(log.stats.joinedCalls == 4);
    REQUIRE(log.records.size() == 5);

    const auto setsockopt = recordsNamed(log, "setsockopt");
    REQUIRE(setsockopt.size() == 1);
    CHECK(setsockopt[0].split == CallSplit::Joined);
    CHECK(setsockopt[0].pid == 24760);
    CHECK(setsockopt[0].lineNumber == 1);
    CHECK(setsockopt[0].option == SocketOption::SoLinger);
    CHECK(setsockopt[0].optionValue == 0);
    CHECK(setsockopt[0].durationNs == 33'000);

    const auto epollCtl = recordsNamed(log, "epoll_ctl");
    REQUIRE(epollCtl.size() == 1);
    CHECK(epollCtl[0].otherFd == 6);
    CHECK(epollCtl[0].epollData == 6);

    // The ready events arrive with the resumed half; the call starts at its unfinished line.
    const auto wait = recordsNamed(log, "epoll_wait");
    REQUIRE(wait.size() == 1);
    CHECK(wait[0].fd == 7);
    CHECK(wait[0].durationNs == 203'480'000);
    REQUIRE(log.readyFdsOf(wait[0]).size() == 1);
    CHECK(log.readyFdsOf(wait[0])[0].fd == 6);

    // The value printed only on return (getsockopt's [1]) comes from the resumed half.
    const auto getsockopt = recordsNamed(log, "getsockopt");
    REQUIRE(getsockopt.size() == 1);
    CHECK(getsockopt[0].optionValue == 1);

    // Records are in time order: the epoll_wait (started 03:25:24.838801) before the write.
    CHECK(std::is_sorted(log.records.begin(), log.records.end(),
                         [](const SyscallRecord& a, const SyscallRecord& b) { return a.tsNs < b.tsNs; }));
    CHECK(log.nameOf(log.records[2]) == "epoll_wait");
    REQUIRE(log.pids() == std::vector<int32_t>{24760, 24761});
    CHECK(log.recordIndexesOf(24761).size() == 2);
    CHECK(log.recordIndexesOf(24760).size() == 3);
    CHECK(log.recordIndexesOf(1).empty());
}

TEST_CASE("without -T a joined call lasts from its start to its resumed line", "[strace][log][split]") {
    const StraceLog log = parseStraceText(
        "1 00:00:01.000000 read(3,  <unfinished ...>\n"
        "2 00:00:01.200000 close(4) = 0\n"
        "1 00:00:01.500000 <... read resumed>\"abc\", 10) = 3\n");
    const auto read = recordsNamed(log, "read");
    REQUIRE(read.size() == 1);
    CHECK(read[0].tsNs == 1 * kSecond);
    CHECK(read[0].durationNs == 500 * kMs);
    CHECK(read[0].bytes == 3);
    CHECK(read[0].requestedBytes == 10);
    CHECK(read[0].fd == 3);
}

TEST_CASE("split calls that never resume, or resume without a start, are kept and counted", "[strace][log][split]") {
    const StraceLog log = parseStraceText(R"(7 10:00:00.000000 <... recvfrom resumed>"hello", 4096, 0, NULL, NULL) = 5
8 10:00:00.100000 epoll_wait(4,  <unfinished ...>
7 10:00:00.200000 write(5, "x", 1) = 1
8 10:00:00.300000 +++ exited with 0 +++
9 10:00:00.400000 accept(3,  <unfinished ...>
)");
    CHECK(log.stats.resumedWithoutStart == 1);
    CHECK(log.stats.unfinishedNeverResumed == 2);
    const auto recvfrom = recordsNamed(log, "recvfrom");
    REQUIRE(recvfrom.size() == 1);
    CHECK(recvfrom[0].split == CallSplit::ResumedOnly);
    CHECK(recvfrom[0].bytes == 5);
    CHECK(recvfrom[0].fd == -1);  // the fd was on the line that is not in the log

    const auto wait = recordsNamed(log, "epoll_wait");
    REQUIRE(wait.size() == 1);
    CHECK(wait[0].split == CallSplit::UnfinishedOnly);
    CHECK(wait[0].returnKind == ReturnKind::Missing);
    CHECK(wait[0].fd == 4);
    const auto accept = recordsNamed(log, "accept");
    REQUIRE(accept.size() == 1);
    CHECK(accept[0].split == CallSplit::UnfinishedOnly);
}

TEST_CASE("strace -f on a terminal: unprefixed lines belong to the only live process", "[strace][log][pid]") {
    const StraceLog log =
        parseStraceText(R"(03:25:24.336164 socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3<TCP:[69598]> <0.000020>
03:25:24.338581 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7fc7e3726990, parent_tid=0x7fc7e3726990, exit_signal=0, stack=0x7fc7e2f26000, stack_size=0x7fff80, tls=0x7fc7e37266c0}strace: Process 24752 attached
 => {parent_tid=[24752]}, 88) = 24752 <0.000064>
[pid 24752] 03:25:24.342328 accept(3<TCP:[127.0.0.1:47311]>, {sa_family=AF_INET, sin_port=htons(39276), sin_addr=inet_addr("127.0.0.1")}, [16]) = 6<TCP:[127.0.0.1:47311->127.0.0.1:39276]> <0.000019>
[pid 24751] 03:25:24.342400 wait4(-1,  <unfinished ...>
[pid 24752] 03:25:24.752324 +++ exited with 0 +++
03:25:24.754484 <... wait4 resumed>NULL, 0, NULL) = 24752 <0.412084>
03:25:24.778567 exit_group(0)           = ?
03:25:24.778745 +++ exited with 0 +++
)");
    CHECK(log.stats.unparsedLines == 0);
    CHECK(log.stats.noticeLines == 1);
    CHECK(log.format.pidStyle == StracePidStyle::Bracketed);
    // The lines before the first "[pid N]" are the traced program's, not the announced child's.
    const auto socket = recordsNamed(log, "socket");
    REQUIRE(socket.size() == 1);
    CHECK(socket[0].pid == 24751);
    CHECK(socket[0].has(kPidInferred));
    const auto clone = recordsNamed(log, "clone3");
    REQUIRE(clone.size() == 1);
    CHECK(clone[0].pid == 24751);
    CHECK(clone[0].returnValue == 24752);
    CHECK(clone[0].durationNs == 64'000);
    // The unprefixed resumed line joins the call 24751 left unfinished.
    const auto wait = recordsNamed(log, "wait4");
    REQUIRE(wait.size() == 1);
    CHECK(wait[0].split == CallSplit::Joined);
    CHECK(wait[0].pid == 24751);
    CHECK(log.pids() == std::vector<int32_t>{24751, 24752});
}

TEST_CASE("time-of-day stamps wrap at midnight and count the day", "[strace][log][time]") {
    const StraceLog log = parseStraceText(
        "1 23:59:59.900000 write(3, \"a\", 1) = 1\n"
        "1 23:59:59.950000 write(3, \"b\", 1) = 1\n"
        "1 00:00:00.050000 write(3, \"c\", 1) = 1\n"
        "1 00:00:00.040000 write(3, \"d\", 1) = 1\n"
        "2 23:59:59.990000 close(9) = 0\n"
        "1 00:00:00.060000 write(3, \"e\", 1) = 1\n");
    CHECK(log.format.timeBase == StraceTimeBase::TimeOfDay);
    REQUIRE(log.records.size() == 6);
    const int64_t day = 86'400 * kSecond;
    CHECK(log.records[0].tsNs == day - 100 * kMs);
    CHECK(log.records[0].dayWraps == 0);
    // Lines of several processes may step back a little without being a new day.
    CHECK(log.records[3].tsNs == day + 40 * kMs);
    CHECK(log.records[4].tsNs == day + 50 * kMs);
    CHECK(log.records[4].dayWraps == 1);
    // A late line from before midnight, printed after it, stays on the first day.
    CHECK(log.nameOf(log.records[2]) == "close");
    CHECK(log.records[2].tsNs == day - 10 * kMs);
    CHECK(log.records[2].dayWraps == 0);
    CHECK(log.records[5].tsNs == day + 60 * kMs);
    CHECK(log.records[5].dayWraps == 1);
}

TEST_CASE("epoch stamps of -ttt and unix ns - -r deltas add up", "[strace][log][time]") {
    const StraceLog epoch = parseStraceText("1795231526.244159 close(3) = 0\n");
    CHECK(epoch.format.timeBase == StraceTimeBase::Epoch);
    CHECK(epoch.format.fractionDigits == 6);
    CHECK(epoch.records.at(0).tsNs == 1795231526 * kSecond + 244'159'000);

    const StraceLog nano = parseStraceText("1795231526.699800563 close(3) = 0\n");
    CHECK(nano.format.fractionDigits == 9);
    CHECK(nano.format.describe() == "--timestamps=unix,ns");
    CHECK(nano.records.at(0).tsNs == 1795231526 * kSecond + 699'800'563);

    // Each -r delta is from the previous line of any process, resumed lines included.
    const StraceLog relative = parseStraceText(
        "     0.000000 execve(\"/bin/x\", [\"x\"], 0x7ffd /* 4 vars */) = 0\n"
        "     0.000250 read(3,  <unfinished ...>\n"
        "     0.100000 <... read resumed>\"\", 5) = 0\n"
        "     1.000000 close(3) = 0\n");
    CHECK(relative.format.timeBase == StraceTimeBase::Relative);
    REQUIRE(relative.records.size() == 3);
    CHECK(relative.records[1].tsNs == 250'000);
    CHECK(relative.records[1].durationNs == 100 * kMs);
    CHECK(relative.records[2].tsNs == 1'100'250'000);

    StraceParseOptions forced;
    forced.timeBase = StraceTimeBase::Epoch;
    CHECK(parseStraceText("12.5 close(3) = 0\n", forced).format.timeBase == StraceTimeBase::Epoch);
}

TEST_CASE("signals and process exits", "[strace][log]") {
    const StraceLog log = parseStraceText(
        R"(100 03:25:24.754497 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=101, si_uid=0, si_status=3, si_utime=0, si_stime=0} ---
101 03:25:24.754479 +++ exited with 3 +++
102 03:25:24.778505 +++ killed by SIGKILL +++
103 03:25:24.778506 +++ killed by SIGSEGV (core dumped) +++
104 03:25:24.778507 --- stopped by SIGSTOP ---
)");
    REQUIRE(log.records.size() == 5);
    const auto signals = tcpscope::testing::recordsOfKind(log, SyscallKind::Signal);
    REQUIRE(signals.size() == 2);
    CHECK(signalName(signals[0].signal) == "SIGCHLD");
    CHECK(signals[1].has(kStopped));
    CHECK(signalName(signals[1].signal) == "SIGSTOP");
    const auto exits = tcpscope::testing::recordsOfKind(log, SyscallKind::ProcessExit);
    REQUIRE(exits.size() == 3);
    CHECK(exits[0].returnValue == 3);
    CHECK(exits[1].has(kKilled));
    CHECK(signalName(exits[1].signal) == "SIGKILL");
    CHECK(exits[2].has(kCoreDumped));
}

TEST_CASE("lines that are not strace output are counted, kept as examples and skipped", "[strace][log][tolerance]") {
    const StraceLog log = parseStraceText(
        "1 03:00:00.000001 close(3) = 0\n"
        "hello from the program on the same terminal\n"
        "\n"
        "1 03:00:00.000002 write(1, \"x\"\n"
        "1 1795231526.244159 close(4) = 0\n"
        "\x01\x02\xff garbage\n"
        "1 03:00:00.000003 close(5) = 0");
    CHECK(log.records.size() == 2);
    CHECK(log.stats.lines == 7);
    CHECK(log.stats.blankLines == 1);
    CHECK(log.stats.unparsedLines == 4);
    REQUIRE(log.unparsedExamples.size() == 4);
    CHECK(log.unparsedExamples[0].lineNumber == 2);
    CHECK(log.unparsedExamples[0].text == "hello from the program on the same terminal");
    CHECK(log.unparsedExamples[2].reason == "timestamp in another format than the log's first one");

    StraceParseOptions few;
    few.maxUnparsedExamples = 1;
    few.maxLineBytes = 32;
    const StraceLog limited = parseStraceText("close(3) = 0\n" + std::string(100, 'x') + "\nclose(4) = 0\n", few);
    CHECK(limited.records.size() == 2);
    CHECK(limited.stats.unparsedLines == 1);
    REQUIRE(limited.unparsedExamples.size() == 1);
    CHECK(limited.unparsedExamples[0].reason.find("longer than 32 bytes") != std::string::npos);
}

TEST_CASE("options: default pid, dropping other calls", "[strace][log][options]") {
    StraceParseOptions options;
    options.defaultPid = 4242;
    options.keepOtherCalls = false;
    const StraceLog log = parseStraceText(
        "mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, -1, 0) = 0x7fa03d06c000\n"
        "openat(AT_FDCWD, \"/etc/hosts\", O_RDONLY) = 3\n"
        "close(3) = 0\n",
        options);
    REQUIRE(log.records.size() == 1);
    CHECK(log.records[0].pid == 4242);
    CHECK(log.stats.droppedOtherCalls == 2);
    CHECK(log.nameOf(log.records[0]) == "close");

    const StraceLog all = parseStraceText("mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, -1, 0) = 0x7fa03d06c000\n");
    CHECK(all.nameOf(all.records.at(0)) == "mmap");
    CHECK(all.records.at(0).kind == SyscallKind::Other);
    CHECK(all.records.at(0).returnValue == 0x7fa03d06c000);
}

TEST_CASE("a stop request ends the parse early with the records so far", "[strace][log][options]") {
    std::string text;
    for (int line = 0; line < 40'000; ++line) {
        text += "1 03:00:00.000001 close(3) = 0\n";  // about 1.2 MB
    }
    StopToken stop;
    stop.requestStop();
    LoadProgress progress;
    StraceParseOptions options;
    options.stop = &stop;
    options.progress = &progress;
    const StraceLog log = parseStraceText(text, options);
    CHECK(log.stopped);
    CHECK(log.records.size() < 40'000);
    CHECK(progress.bytesDone.load() > 0);
}

TEST_CASE("file names of -ff give their pid - files given together are grouped", "[strace][files]") {
    const auto name = parseStraceFileName("/tmp/run/proxy.strace.22085");
    REQUIRE(name.has_value());
    CHECK(name->base == "/tmp/run/proxy.strace");
    CHECK(name->pid == 22085);
    CHECK_FALSE(parseStraceFileName("proxy.strace").has_value());
    CHECK_FALSE(parseStraceFileName("/tmp/x.1/trace").has_value());
    CHECK_FALSE(parseStraceFileName("trace.99999999").has_value());
    CHECK_FALSE(parseStraceFileName(".123").has_value());

    const auto groups = groupStraceFiles({"a.strace.30", "b.strace", "a.strace.12", "c.strace.5", "a.strace.20"});
    REQUIRE(groups.size() == 3);
    CHECK(groups[0].base == "a.strace");
    CHECK(groups[0].paths == std::vector<std::string>{"a.strace.12", "a.strace.20", "a.strace.30"});
    CHECK(groups[1].paths == std::vector<std::string>{"b.strace"});
    CHECK(groups[2].paths == std::vector<std::string>{"c.strace.5"});
}

TEST_CASE("an unreadable file throws with its name", "[strace][files]") {
    CHECK_THROWS_AS(parseStraceFile("/nonexistent/trace.strace"), CaptureError);
}

TEST_CASE("records sort by time, late ones merged in, file order breaking ties", "[strace][log][order]") {
    std::vector<SyscallRecord> records(7);
    const int64_t times[] = {10, 20, 15, 20, 30, 5, 20};
    for (size_t index = 0; index < records.size(); ++index) {
        records[index].tsNs = times[index];
        records[index].lineNumber = static_cast<uint32_t>(index + 1);
        records[index].pid = index % 2 == 0 ? 1 : 2;
    }
    sortRecordsByTime(records);
    std::vector<uint32_t> lines;
    lines.reserve(records.size());
    for (const SyscallRecord& record : records) {
        lines.push_back(record.lineNumber);
    }
    CHECK(lines == std::vector<uint32_t>{6, 1, 3, 2, 4, 7, 5});
    const auto processes = indexProcesses(records);
    REQUIRE(processes.size() == 2);
    CHECK(processes[0].pid == 1);
    CHECK(processes[0].records == std::vector<uint32_t>{1, 2, 5, 6});
    CHECK(processes[1].records == std::vector<uint32_t>{0, 3, 4});
}
