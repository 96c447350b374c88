#include "strace/strace_file_name.hpp"

#include <algorithm>

#include "strace/text_scan.hpp"

namespace tcpscope {

std::optional<StraceFileName> parseStraceFileName(std::string_view path) {
    const size_t dot = path.rfind('.');
    const size_t slash = path.rfind('/');
    if (dot == std::string_view::npos || dot == 0 || (slash != std::string_view::npos && dot < slash + 2)) {
        return std::nullopt;  // no NAME before the dot
    }
    const std::string_view digits = path.substr(dot + 1);
    if (digits.empty() || digits.size() > 7 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return strace_text::isDigit(c); })) {
        return std::nullopt;
    }
    const auto pid = strace_text::parseInteger(digits);
    if (!pid || *pid <= 0 || *pid > 4'194'304) {
        return std::nullopt;
    }
    return StraceFileName{std::string(path.substr(0, dot)), static_cast<int32_t>(*pid)};
}

std::vector<StraceFileGroup> groupStraceFiles(const std::vector<std::string>& paths) {
    std::vector<StraceFileGroup> groups;
    for (const std::string& path : paths) {
        const auto name = parseStraceFileName(path);
        if (name) {
            const auto group = std::find_if(groups.begin(), groups.end(), [&](const StraceFileGroup& candidate) {
                return candidate.base == name->base && parseStraceFileName(candidate.paths.front()).has_value();
            });
            if (group != groups.end()) {
                group->paths.push_back(path);
                continue;
            }
        }
        groups.push_back(StraceFileGroup{name ? name->base : path, {path}});
    }
    for (StraceFileGroup& group : groups) {
        std::stable_sort(group.paths.begin(), group.paths.end(), [](const std::string& a, const std::string& b) {
            const auto pidA = parseStraceFileName(a);
            const auto pidB = parseStraceFileName(b);
            return (pidA ? pidA->pid : 0) < (pidB ? pidB->pid : 0);
        });
    }
    return groups;
}

}  // namespace tcpscope
