#include "strace/syscall_result.hpp"

#include "strace/errno_names.hpp"
#include "strace/fd_decoration.hpp"
#include "strace/text_scan.hpp"

namespace tcpscope {
namespace {

using strace_text::trimLeft;

/// An errno name at the start of `text` ("EAGAIN (Resource...)"): its number, the rest after it.
bool readErrno(std::string_view text, int& number, std::string_view& rest) {
    if (text.size() < 2 || text[0] != 'E') {
        return false;
    }
    size_t end = 1;
    while (end < text.size() && strace_text::isNameChar(text[end])) {
        ++end;
    }
    number = errnoFromName(text.substr(0, end));
    rest = trimLeft(text.substr(end));
    return true;
}

}  // namespace

ResultDetails parseSyscallResult(std::string_view text, SyscallRecord& record) {
    ResultDetails details;
    text = trimLeft(text);
    if (text.empty()) {
        record.returnKind = ReturnKind::Missing;
        return details;
    }
    if (text[0] == '?') {
        record.returnKind = ReturnKind::None;
        int number = 0;
        std::string_view rest = trimLeft(text.substr(1));
        if (readErrno(rest, number, rest)) {
            record.errnoCode = static_cast<int16_t>(number);
        }
        details.annotation = rest;
        return details;
    }
    int64_t value = 0;
    const size_t used = strace_text::parseLeadingInteger(text, value);
    if (used == 0) {
        record.returnKind = ReturnKind::Missing;
        return details;
    }
    std::string_view rest = text.substr(used);
    if (!rest.empty() && rest[0] == '<') {
        const size_t close = findDecorationEnd(rest, 0);
        if (close != std::string_view::npos) {
            details.decoration = rest.substr(1, close - 1);
            rest = rest.substr(close + 1);
        }
    }
    rest = trimLeft(rest);
    record.returnValue = value;
    record.returnKind = ReturnKind::Value;
    if (value < 0) {
        int number = 0;
        std::string_view after;
        if (readErrno(rest, number, after)) {
            record.returnKind = ReturnKind::Error;
            record.errnoCode = static_cast<int16_t>(number);
            rest = after;
        } else if (rest.substr(0, 7) == "(errno ") {
            int64_t unnamed = 0;
            strace_text::parseLeadingInteger(rest.substr(7), unnamed);
            record.returnKind = ReturnKind::Error;
            record.errnoCode = static_cast<int16_t>(unnamed > 0 && unnamed <= INT16_MAX ? unnamed : 0);
            const size_t close = rest.find(')');
            rest = close == std::string_view::npos ? std::string_view() : trimLeft(rest.substr(close + 1));
        }
    }
    details.annotation = rest;
    return details;
}

}  // namespace tcpscope
