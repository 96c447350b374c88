#include "recorder/process_details.hpp"

#include <fstream>
#include <iterator>
#include <sstream>
#include <string_view>

namespace tcpscope {
namespace {

std::string fileText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string withoutNewline(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) {
        text.pop_back();
    }
    return text;
}

// The command line's NUL-separated arguments joined by spaces; cut at kMaxArgsBytes with "...".
std::string commandLine(std::string raw) {
    raw = withoutNewline(std::move(raw));
    for (char& c : raw) {
        if (c == '\0' || c == '\n') {
            c = ' ';
        }
    }
    if (raw.size() > ProcessDetails::kMaxArgsBytes) {
        raw.resize(ProcessDetails::kMaxArgsBytes - 3);
        raw += "...";
    }
    return raw;
}

// The parent pid: the fourth field of /proc/PID/stat, after the comm in parentheses (which may
// itself hold spaces and parentheses: the last ')' ends it).
uint32_t parentOf(const std::string& stat) {
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) {
        return 0;
    }
    std::istringstream fields(stat.substr(close + 1));
    std::string state;
    uint64_t parent = 0;
    fields >> state >> parent;
    return fields ? static_cast<uint32_t>(parent) : 0;
}

std::string cgroupOf(const std::string& text) {
    std::string first;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("0::", 0) == 0) {
            return line.substr(3);
        }
        if (first.empty()) {
            if (const size_t colon = line.find(':', line.find(':') + 1); colon != std::string::npos) {
                first = line.substr(colon + 1);
            }
        }
    }
    return first;
}

}  // namespace

ProcessDetails readProcessDetails(uint32_t pid, const std::string& procRoot) {
    const std::string directory = procRoot + "/" + std::to_string(pid);
    ProcessDetails details;
    details.args = commandLine(fileText(directory + "/cmdline"));
    details.parentPid = parentOf(fileText(directory + "/stat"));
    if (details.parentPid > 0) {
        details.parentCommand = withoutNewline(fileText(procRoot + "/" + std::to_string(details.parentPid) + "/comm"));
    }
    details.cgroup = cgroupOf(fileText(directory + "/cgroup"));
    return details;
}

}  // namespace tcpscope
