#include "capture/ptcpdump_comment.hpp"

#include <array>
#include <charconv>
#include <optional>

#include "text/valid_utf8.hpp"

namespace tcpscope {

namespace {

// The keys ptcpdump puts first in each of its comments (internal/writer/pcapng.go): the process,
// its thread, its user, its parent, its container, its pod. Older versions wrote "Command".
constexpr std::array<std::string_view, 7> kFirstKeys = {"PID",       "ThreadId",      "TID",    "UserId",
                                                        "ParentPID", "ContainerName", "PodName"};

std::string_view trimmed(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r";
    const size_t first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

struct Line {
    std::string_view key;
    std::string_view value;
};

// "Key: value" (ptcpdump's only line form); nullopt for a line that is not one.
std::optional<Line> splitLine(std::string_view line) {
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
        return std::nullopt;
    }
    const std::string_view key = trimmed(line.substr(0, colon));
    if (key.empty() || key.find(' ') != std::string_view::npos) {
        return std::nullopt;
    }
    return Line{key, trimmed(line.substr(colon + 1))};
}

std::optional<int64_t> positiveNumber(std::string_view text) {
    int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value <= 0) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

bool looksLikePtcpdumpComment(std::string_view comment) {
    const std::string_view first = trimmed(comment.substr(0, comment.find('\n')));
    const std::optional<Line> line = splitLine(first);
    if (!line) {
        return false;
    }
    for (const std::string_view key : kFirstKeys) {
        if (line->key == key) {
            return true;
        }
    }
    return false;
}

bool readPtcpdumpComment(std::string_view comment, PacketProcess& process) {
    if (!looksLikePtcpdumpComment(comment)) {
        return false;
    }
    PacketProcess read = process;
    std::string_view podName;
    std::string_view podNamespace;
    std::string_view rest = comment;
    while (!rest.empty()) {
        const size_t end = rest.find('\n');
        const std::string_view text = trimmed(rest.substr(0, end));
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        if (text.empty()) {
            continue;
        }
        const std::optional<Line> line = splitLine(text);
        if (!line) {
            return false;
        }
        if (line->key == "PID" || line->key == "ParentPID") {
            const std::optional<int64_t> pid = positiveNumber(line->value);
            if (!pid) {
                return false;
            }
            (line->key == "PID" ? read.pid : read.parentPid) = *pid;
        } else if (line->key == "ThreadId" || line->key == "TID") {
            read.thread = positiveNumber(line->value).value_or(-1);
        } else if (line->key == "Cgroup") {
            read.cgroup = validUtf8(line->value);
        } else if (line->key == "Cmd" || line->key == "Command") {
            read.command = validUtf8(line->value);
        } else if (line->key == "Args") {
            read.args = validUtf8(line->value);
        } else if (line->key == "ParentCmd" || line->key == "ParentCommand") {
            read.parentCommand = validUtf8(line->value);
        } else if (line->key == "ContainerName") {
            read.container = validUtf8(line->value);
        } else if (line->key == "PodName") {
            podName = line->value;
        } else if (line->key == "PodNamespace") {
            podNamespace = line->value;
        }
    }
    if (!podName.empty()) {
        read.pod = validUtf8(podNamespace.empty() ? std::string(podName)
                                                  : std::string(podNamespace) + "/" + std::string(podName));
    }
    process = std::move(read);
    return true;
}

}  // namespace tcpscope
