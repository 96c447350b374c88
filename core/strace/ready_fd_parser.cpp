#include "strace/ready_fd_parser.hpp"

#include <optional>

#include "strace/socket_constants.hpp"
#include "strace/text_scan.hpp"

namespace tcpscope {
namespace {

using strace_text::isDigit;
using strace_text::trim;

/// Index of the '}' closing the '{' at `open`, or npos (no quotes inside these structs).
size_t matchingBrace(std::string_view text, size_t open) {
    size_t depth = 0;
    for (size_t position = open; position < text.size(); ++position) {
        if (text[position] == '{') {
            ++depth;
        } else if (text[position] == '}' && --depth == 0) {
            return position;
        }
    }
    return std::string_view::npos;
}

/// The text of field `key` ("revents=") up to the next ',' or '}' at the same level.
std::string_view fieldValue(std::string_view text, std::string_view key) {
    const size_t at = text.find(key);
    if (at == std::string_view::npos) {
        return {};
    }
    const std::string_view rest = text.substr(at + key.size());
    return rest.substr(0, rest.find_first_of(",}"));
}

/// The data of one epoll_event, whichever way strace printed it.
std::optional<uint64_t> epollDataOf(std::string_view element) {
    // "{u32=5, u64=5}" in the old and the 4.x-6.x formats: u64 carries all bits.
    if (const auto u64 = strace_text::unsignedAfter(element, "u64=")) {
        return u64;
    }
    if (const auto u32 = strace_text::unsignedAfter(element, "u32=")) {
        return u32;
    }
    if (const auto fd = strace_text::unsignedAfter(element, "fd=")) {
        return fd;
    }
    return strace_text::unsignedAfter(element, "data=");
}

/// The events of one epoll_event: "events=EPOLLIN|EPOLLOUT" or, in the old format, the first field.
uint8_t epollEventsOf(std::string_view element) {
    std::string_view first = trim(element.substr(0, element.find(',')));
    if (first.substr(0, 7) == "events=") {
        first.remove_prefix(7);
    }
    return readyEventsFromText(first);
}

}  // namespace

void ReadyFdSink::add(int32_t fd, uint8_t events) {
    if (added >= limit) {
        cut = true;
        return;
    }
    out.push_back(ReadyFd{fd, events});
    ++added;
}

void parsePollReady(std::string_view annotation, ReadyFdSink& sink) {
    // Each entry runs from its "fd=" to the next one ("revents=" holds no "fd="), so the scan stays
    // linear whatever the text.
    size_t at = annotation.find("fd=");
    while (at != std::string_view::npos) {
        const size_t next = annotation.find("fd=", at + 3);
        const std::string_view entry =
            annotation.substr(at + 3, next == std::string_view::npos ? std::string_view::npos : next - at - 3);
        int64_t fd = 0;
        if (strace_text::parseLeadingInteger(entry, fd) > 0 && fd >= INT32_MIN && fd <= INT32_MAX) {
            sink.add(static_cast<int32_t>(fd), readyEventsFromText(fieldValue(entry, "revents=")));
        }
        at = next;
    }
    if (annotation.find("...") != std::string_view::npos) {
        sink.cut = true;
    }
}

void parseSelectReady(std::string_view annotation, ReadyFdSink& sink) {
    struct SetName {
        std::string_view key;
        uint8_t events;
    };
    constexpr SetName kSets[] = {{"in [", kReadable}, {"out [", kWritable}, {"except [", kError}};
    for (const SetName& set : kSets) {
        size_t at = annotation.find(set.key);
        // "in [" must be a word of its own, not the end of "min [" or the like.
        while (at != std::string_view::npos && at > 0 && annotation[at - 1] != '(' && annotation[at - 1] != ' ') {
            at = annotation.find(set.key, at + 1);
        }
        if (at == std::string_view::npos) {
            continue;
        }
        size_t position = at + set.key.size();
        while (position < annotation.size() && annotation[position] != ']') {
            if (!isDigit(annotation[position])) {
                ++position;
                continue;
            }
            int64_t fd = 0;
            position += strace_text::parseLeadingInteger(annotation.substr(position), fd);
            if (fd <= INT32_MAX) {
                sink.add(static_cast<int32_t>(fd), set.events);
            }
            // Skip a decoration or anything else up to the next separator.
            while (position < annotation.size() && annotation[position] != ' ' && annotation[position] != ']') {
                ++position;
            }
        }
    }
}

void parseEpollReady(std::string_view events, ReadyFdSink& sink) {
    events = trim(events);
    if (events.empty() || events[0] != '[') {
        return;  // an address (the call failed or returned nothing) or NULL
    }
    size_t position = 1;
    while (position < events.size()) {
        const size_t open = events.find('{', position);
        if (open == std::string_view::npos) {
            break;
        }
        const size_t close = matchingBrace(events, open);
        if (close == std::string_view::npos) {
            break;
        }
        const std::string_view element = events.substr(open + 1, close - open - 1);
        const auto data = epollDataOf(element);
        if (data) {
            sink.add(static_cast<int32_t>(static_cast<uint32_t>(*data)), epollEventsOf(element));
        }
        position = close + 1;
    }
    if (events.find("...") != std::string_view::npos) {
        sink.cut = true;
    }
}

bool parseEpollEvent(std::string_view text, uint8_t& events, uint64_t& data) {
    text = trim(text);
    if (text.size() < 2 || text.front() != '{' || text.back() != '}') {
        return false;
    }
    const std::string_view element = text.substr(1, text.size() - 2);
    events = epollEventsOf(element);
    data = epollDataOf(element).value_or(0);
    return true;
}

}  // namespace tcpscope
