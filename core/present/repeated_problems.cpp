#include "present/repeated_problems.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tcpscope {

std::vector<ProblemGroup> groupRepeatedProblems(const std::vector<InputProblem>& problems) {
    std::vector<ProblemGroup> groups;
    for (const InputProblem& problem : problems) {
        const auto same = std::find_if(groups.begin(), groups.end(), [&](const ProblemGroup& group) {
            return group.first.reason == problem.reason && group.first.file == problem.file;
        });
        if (same != groups.end()) {
            ++same->count;
            same->lastOffset = problem.offset;
        } else {
            groups.push_back(ProblemGroup{problem, 1, problem.offset});
        }
    }
    return groups;
}

std::string describeProblemGroup(const ProblemGroup& group) {
    if (group.count == 1) {
        return group.first.describe();
    }
    return fmt::format("{} ({} times, the last at offset {})", group.first.describe(), group.count, group.lastOffset);
}

}  // namespace tcpscope
