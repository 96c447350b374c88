#include "strace/strace_line.hpp"

#include "strace/text_scan.hpp"

namespace tcpscope {
namespace {

using strace_text::isDigit;
using strace_text::isNameChar;
using strace_text::trimRight;

// The highest pid Linux hands out (PID_MAX_LIMIT); a bigger lone number is an epoch second.
constexpr int64_t kMaxPid = 4'194'304;
constexpr std::string_view kUnfinished = "<unfinished ...>";
constexpr std::string_view kAttachedNotice = "strace: Process ";

size_t skipSpaces(std::string_view text, size_t position) {
    while (position < text.size() && text[position] == ' ') {
        ++position;
    }
    return position;
}

size_t tokenEnd(std::string_view text, size_t position) {
    while (position < text.size() && text[position] != ' ') {
        ++position;
    }
    return position;
}

bool allDigits(std::string_view text) {
    if (text.empty()) {
        return false;
    }
    for (const char c : text) {
        if (!isDigit(c)) {
            return false;
        }
    }
    return true;
}

StraceLine unparsed(StraceLine line, std::string_view reason) {
    line.type = StraceLineType::Unparsed;
    line.reason = reason;
    return line;
}

/// "strace: Process 123 attached" / "... detached" / other strace messages.
StraceLine parseNotice(StraceLine line, std::string_view body) {
    line.type = StraceLineType::Notice;
    if (body.substr(0, kAttachedNotice.size()) == kAttachedNotice) {
        int64_t pid = 0;
        const std::string_view rest = body.substr(kAttachedNotice.size());
        const size_t used = strace_text::parseLeadingInteger(rest, pid);
        if (used > 0 && pid > 0 && pid <= kMaxPid) {
            line.noticePid = static_cast<int32_t>(pid);
            line.attached = rest.substr(used).substr(0, 9) == " attached";
        }
    }
    return line;
}

/// The part after "name(" or "resumed>": the duration, the unfinished marker or " = result".
StraceLine parseTail(StraceLine line, std::string_view tail, std::string_view wholeLine, bool resumed) {
    if (!tail.empty() && tail.back() == '>') {
        const size_t open = tail.rfind('<');
        if (open != std::string_view::npos && open > 0 && tail[open - 1] == ' ') {
            const std::string_view token = tail.substr(open + 1, tail.size() - open - 2);
            StraceStamp duration;
            if (token == "unavailable") {
                tail = trimRight(tail.substr(0, open));
            } else if (parseStraceStamp(token, duration) && duration.shape == StampShape::Seconds) {
                line.hasDuration = true;
                line.durationNs = duration.ns;
                tail = trimRight(tail.substr(0, open));
            }
        }
    }
    if (tail.size() >= kUnfinished.size() && tail.substr(tail.size() - kUnfinished.size()) == kUnfinished) {
        // "<... read resumed> <unfinished ...>)" does not happen; a resumed line never ends like this.
        line.type = resumed ? StraceLineType::Resumed : StraceLineType::Unfinished;
        line.arguments = trimRight(tail.substr(0, tail.size() - kUnfinished.size()));
        return line;
    }
    // The return value follows the last ") = " (strace pads before '=' to a column); strings in
    // the arguments may hold the same characters, but never after it.
    size_t searchEnd = tail.size();  // the next " = " must start at or before searchEnd - 3
    while (searchEnd >= 3) {
        const size_t equals = tail.rfind(" = ", searchEnd - 3);
        if (equals == std::string_view::npos) {
            break;
        }
        size_t close = equals;
        while (close > 0 && tail[close - 1] == ' ') {
            --close;
        }
        if (close > 0 && tail[close - 1] == ')') {
            line.type = resumed ? StraceLineType::Resumed : StraceLineType::Call;
            line.arguments = tail.substr(0, close - 1);
            line.result = tail.substr(equals + 3);
            return line;
        }
        searchEnd = equals + 2;
    }
    if (const size_t notice = wholeLine.find(kAttachedNotice); notice != std::string_view::npos) {
        line.noticeSplit = notice;
    }
    return unparsed(line, "call without a return value");
}

}  // namespace

StraceLine parseStraceLine(std::string_view text) {
    StraceLine line;
    text = trimRight(text);
    size_t position = skipSpaces(text, 0);
    if (position == text.size()) {
        line.type = StraceLineType::Blank;
        return line;
    }
    // "[pid  123] " (strace -f on stderr).
    if (text.substr(position, 4) == "[pid") {
        const size_t digits = skipSpaces(text, position + 4);
        const size_t close = text.find(']', digits);
        const auto pid = close == std::string_view::npos
                             ? std::nullopt
                             : strace_text::parseInteger(text.substr(digits, close - digits));
        if (!pid || *pid <= 0 || *pid > kMaxPid) {
            return unparsed(line, "malformed [pid N] prefix");
        }
        line.pidStyle = StracePidStyle::Bracketed;
        line.pid = static_cast<int32_t>(*pid);
        position = skipSpaces(text, close + 1);
    } else if (isDigit(text[position])) {
        // "1234 " (strace -f -o FILE), unless the lone number is an epoch second.
        const size_t end = tokenEnd(text, position);
        const std::string_view first = text.substr(position, end - position);
        const size_t next = skipSpaces(text, end);
        if (allDigits(first) && next < text.size()) {
            const auto value = strace_text::parseInteger(first);
            if (value && *value > 0 && (isDigit(text[next]) || *value <= kMaxPid)) {
                line.pidStyle = StracePidStyle::Column;
                line.pid = static_cast<int32_t>(*value);
                position = next;
            }
        }
    }
    if (position < text.size() && isDigit(text[position])) {
        const size_t end = tokenEnd(text, position);
        if (!parseStraceStamp(text.substr(position, end - position), line.stamp)) {
            return unparsed(line, "unreadable timestamp");
        }
        position = skipSpaces(text, end);
        // "-r" together with "-ttt" adds "(+     0.000685) " after the absolute time.
        if (text.substr(position, 2) == "(+") {
            const size_t close = text.find(')', position);
            position = close == std::string_view::npos ? text.size() : skipSpaces(text, close + 1);
        }
    }
    // "-n" prints "[  59] ", "-i" prints "[00007f746ecb3ad7] ".
    for (int group = 0; group < 2 && position < text.size() && text[position] == '['; ++group) {
        const size_t close = text.find(']', position);
        if (close == std::string_view::npos || close - position > 40) {
            break;
        }
        position = skipSpaces(text, close + 1);
    }
    const std::string_view body = text.substr(position);
    if (body.empty()) {
        return unparsed(line, "prefix without a call");
    }
    switch (body[0]) {
        case '<': {
            if (body.substr(0, 5) != "<... ") {
                return unparsed(line, "unknown line");
            }
            const size_t nameEnd = tokenEnd(body, 5);
            line.name = body.substr(5, nameEnd - 5);
            constexpr std::string_view kResumed = " resumed>";
            if (body.substr(nameEnd, kResumed.size()) != kResumed) {
                return unparsed(line, "malformed resumed line");
            }
            return parseTail(line, body.substr(nameEnd + kResumed.size()), text, true);
        }
        case '-': {
            if (body.substr(0, 4) != "--- ") {
                return unparsed(line, "unknown line");
            }
            std::string_view inner = body.substr(4);
            if (inner.size() >= 4 && inner.substr(inner.size() - 4) == " ---") {
                inner = inner.substr(0, inner.size() - 4);
            }
            line.type = StraceLineType::Signal;
            const size_t nameEnd = tokenEnd(inner, 0);
            line.name = inner.substr(0, nameEnd);
            line.arguments = strace_text::trim(inner.substr(nameEnd));
            return line;
        }
        case '+': {
            if (body.substr(0, 4) != "+++ ") {
                return unparsed(line, "unknown line");
            }
            std::string_view inner = body.substr(4);
            if (inner.size() >= 4 && inner.substr(inner.size() - 4) == " +++") {
                inner = inner.substr(0, inner.size() - 4);
            }
            line.type = StraceLineType::Exit;
            line.arguments = inner;
            return line;
        }
        default: break;
    }
    if (body.substr(0, 8) == "strace: ") {
        return parseNotice(line, body);
    }
    size_t nameEnd = 0;
    while (nameEnd < body.size() && (isNameChar(body[nameEnd]) || body[nameEnd] == '?')) {
        ++nameEnd;
    }
    if (nameEnd == 0 || nameEnd >= body.size() || body[nameEnd] != '(') {
        return unparsed(line, "unknown line");
    }
    line.name = body.substr(0, nameEnd);
    return parseTail(line, body.substr(nameEnd + 1), text, false);
}

}  // namespace tcpscope
