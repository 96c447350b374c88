// One line of strace output cut into its parts: every prefix, timestamp and body shape strace
// prints, written by hand after strace 6.1's real output.
#include "strace/strace_line.hpp"

#include <catch2/catch.hpp>

using tcpscope::parseStraceLine;
using tcpscope::StampShape;
using tcpscope::StraceLine;
using tcpscope::StraceLineType;
using tcpscope::StracePidStyle;

namespace {

constexpr int64_t kSecond = 1'000'000'000;

int64_t timeOfDay(int64_t hours, int64_t minutes, int64_t seconds, int64_t micros) {
    return ((hours * 60 + minutes) * 60 + seconds) * kSecond + micros * 1000;
}

}  // namespace

TEST_CASE("a bare call line splits into name, arguments and result", "[strace][line]") {
    const StraceLine line = parseStraceLine(
        R"(connect(3, {sa_family=AF_INET, sin_port=htons(3306), sin_addr=inet_addr("127.0.0.1")}, 16) = 0)");
    CHECK(line.type == StraceLineType::Call);
    CHECK(line.pidStyle == StracePidStyle::None);
    CHECK(line.stamp.shape == StampShape::None);
    CHECK(line.name == "connect");
    CHECK(line.arguments == R"(3, {sa_family=AF_INET, sin_port=htons(3306), sin_addr=inet_addr("127.0.0.1")}, 16)");
    CHECK(line.result == "0");
    CHECK_FALSE(line.hasDuration);
}

TEST_CASE("the pid prefixes of -f on a terminal and of -f -o FILE", "[strace][line]") {
    const StraceLine bracketed = parseStraceLine("[pid 24751] 03:25:24.338693 close(5) = 0");
    CHECK(bracketed.pidStyle == StracePidStyle::Bracketed);
    CHECK(bracketed.pid == 24751);
    CHECK(bracketed.stamp.ns == timeOfDay(3, 25, 24, 338693));

    // strace pads short pids: "[pid   123]" and "123   ".
    const StraceLine padded = parseStraceLine("[pid   123] close(5) = 0");
    CHECK(padded.pid == 123);
    CHECK(padded.name == "close");

    const StraceLine column = parseStraceLine("123   03:25:24.797674 close(3) = 0 <0.000038>");
    CHECK(column.pidStyle == StracePidStyle::Column);
    CHECK(column.pid == 123);
    CHECK(column.stamp.shape == StampShape::TimeOfDay);

    const StraceLine plainColumn = parseStraceLine("24861 socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3");
    CHECK(plainColumn.pidStyle == StracePidStyle::Column);
    CHECK(plainColumn.pid == 24861);
    CHECK(plainColumn.stamp.shape == StampShape::None);
}

TEST_CASE("every timestamp format: -t, -tt, -ttt, unix ns, unix s, -r", "[strace][line][time]") {
    const StraceLine seconds = parseStraceLine("24788 03:25:25 socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3");
    CHECK(seconds.stamp.shape == StampShape::TimeOfDay);
    CHECK(seconds.stamp.fractionDigits == 0);
    CHECK(seconds.stamp.ns == timeOfDay(3, 25, 25, 0));

    const StraceLine micro =
        parseStraceLine("03:25:27.656165 socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3<TCP:[73002]>");
    CHECK(micro.pidStyle == StracePidStyle::None);
    CHECK(micro.stamp.fractionDigits == 6);
    CHECK(micro.stamp.ns == timeOfDay(3, 25, 27, 656165));
    CHECK(micro.result == "3<TCP:[73002]>");

    const StraceLine epoch =
        parseStraceLine("24800 1795231526.244159 socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3<TCP:[71827]> <0.000021>");
    CHECK(epoch.stamp.shape == StampShape::Seconds);
    CHECK(epoch.stamp.ns == 1795231526 * kSecond + 244159000);
    CHECK(epoch.hasDuration);
    CHECK(epoch.durationNs == 21000);

    const StraceLine nano =
        parseStraceLine("24809 1795231526.699800563 socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3<TCP:[71897]>");
    CHECK(nano.stamp.fractionDigits == 9);
    CHECK(nano.stamp.ns == 1795231526 * kSecond + 699800563);

    // --timestamps=unix,s: a lone number above any pid is a time, not a pid column.
    const StraceLine unixSeconds = parseStraceLine(R"(1795231704 brk(NULL)                    = 0x555dac55d000)");
    CHECK(unixSeconds.pidStyle == StracePidStyle::None);
    CHECK(unixSeconds.stamp.ns == 1795231704 * kSecond);

    // -r pads its deltas on the left, with or without a pid column.
    const StraceLine relative = parseStraceLine("     0.000253 brk(NULL)              = 0x556c45e2b000");
    CHECK(relative.pidStyle == StracePidStyle::None);
    CHECK(relative.stamp.ns == 253000);
    const StraceLine relativeColumn =
        parseStraceLine("24821      0.000045 setsockopt(3<socket:[72954]>, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0");
    CHECK(relativeColumn.pid == 24821);
    CHECK(relativeColumn.stamp.ns == 45000);

    // -r together with -ttt prints the delta in parentheses after the absolute time.
    const StraceLine both = parseStraceLine("1795231704.642275 (+     0.000685) brk(NULL) = 0x5635325fb000");
    CHECK(both.stamp.ns == 1795231704 * kSecond + 642275000);
    CHECK(both.name == "brk");
}

TEST_CASE("the columns of -n and -i before the name are skipped", "[strace][line]") {
    const StraceLine line = parseStraceLine("03:28:24.666958 [  12] [00007fcac7168c47] brk(NULL) = 0x556705282000");
    CHECK(line.type == StraceLineType::Call);
    CHECK(line.name == "brk");
}

TEST_CASE("unfinished and resumed halves", "[strace][line][split]") {
    const StraceLine unfinished =
        parseStraceLine("24761 03:25:24.838801 epoll_wait(7<anon_inode:[eventpoll]>,  <unfinished ...>");
    CHECK(unfinished.type == StraceLineType::Unfinished);
    CHECK(unfinished.name == "epoll_wait");
    CHECK(unfinished.arguments == "7<anon_inode:[eventpoll]>,");

    const StraceLine resumed = parseStraceLine(
        "24761 03:25:25.042305 <... epoll_wait resumed>[{events=EPOLLIN, data={u32=6, u64=6}}], 4, 1000) = 1 "
        "<0.203480>");
    CHECK(resumed.type == StraceLineType::Resumed);
    CHECK(resumed.name == "epoll_wait");
    CHECK(resumed.arguments == "[{events=EPOLLIN, data={u32=6, u64=6}}], 4, 1000");
    CHECK(resumed.result == "1");
    CHECK(resumed.durationNs == 203480000);

    const StraceLine empty = parseStraceLine("[pid 24751] 03:25:24.751359 <... connect resumed>) = 0 <0.000077>");
    CHECK(empty.type == StraceLineType::Resumed);
    CHECK(empty.arguments.empty());
    CHECK(empty.result == "0");
}

TEST_CASE("exit_group's padded \"= ?\" and a -T duration strace could not measure", "[strace][line]") {
    const StraceLine exitLine = parseStraceLine("03:24:48.107828 exit_group(0)           = ?");
    CHECK(exitLine.type == StraceLineType::Call);
    CHECK(exitLine.arguments == "0");
    CHECK(exitLine.result == "?");

    const StraceLine unavailable = parseStraceLine("[pid 7] <... futex resumed>) = ? <unavailable>");
    CHECK(unavailable.type == StraceLineType::Resumed);
    CHECK(unavailable.result == "?");
    CHECK_FALSE(unavailable.hasDuration);
}

TEST_CASE("the result is found after strings that hold \") = \" themselves", "[strace][line]") {
    const StraceLine line = parseStraceLine(R"(write(1, "f(x) = 1 and \"g()\" = 2\n", 24) = 24 <0.000010>)");
    CHECK(line.type == StraceLineType::Call);
    CHECK(line.arguments == R"(1, "f(x) = 1 and \"g()\" = 2\n", 24)");
    CHECK(line.result == "24");
}

TEST_CASE("signal, exit and notice lines", "[strace][line]") {
    const StraceLine signal = parseStraceLine(
        "03:24:48.059647 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=22101, si_uid=0, si_status=0, "
        "si_utime=0, si_stime=0} ---");
    CHECK(signal.type == StraceLineType::Signal);
    CHECK(signal.name == "SIGCHLD");
    CHECK(signal.arguments.substr(0, 11) == "{si_signo=S");

    const StraceLine exited = parseStraceLine("[pid 24755] 03:25:24.754479 +++ exited with 3 +++");
    CHECK(exited.type == StraceLineType::Exit);
    CHECK(exited.pid == 24755);
    CHECK(exited.arguments == "exited with 3");

    const StraceLine killed = parseStraceLine("24783 03:25:25.761061 +++ killed by SIGKILL +++");
    CHECK(killed.type == StraceLineType::Exit);
    CHECK(killed.arguments == "killed by SIGKILL");

    const StraceLine notice = parseStraceLine("strace: Process 24752 attached");
    CHECK(notice.type == StraceLineType::Notice);
    CHECK(notice.noticePid == 24752);
    CHECK(notice.attached);
}

TEST_CASE("a call cut by strace's attach message is recognised", "[strace][line]") {
    const std::string_view text =
        "03:25:24.753957 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLDstrace: Process "
        "24755 attached";
    const StraceLine line = parseStraceLine(text);
    CHECK(line.type == StraceLineType::Unparsed);
    REQUIRE(line.noticeSplit != std::string_view::npos);
    CHECK(text.substr(line.noticeSplit) == "strace: Process 24755 attached");
}

TEST_CASE("lines that are not strace output come back unparsed with a reason", "[strace][line]") {
    for (const char* text : {"hello from the program", "12345", "[pid abc] close(1) = 0", "99:99:99 close(1) = 0",
                             "write(1, \"x\", 1", "<... nothing", "--- ", "+++", "1.2.3 close(1) = 0"}) {
        CAPTURE(text);
        const StraceLine line = parseStraceLine(text);
        CHECK(line.type == StraceLineType::Unparsed);
        CHECK_FALSE(line.reason.empty());
    }
    CHECK(parseStraceLine("   \r").type == StraceLineType::Blank);
}
