#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "capture/capture_error.hpp"

namespace tcpscope {

/// Problems of one file with the same reason, said once with their count: a listing of problems
/// prints one line per group, not one per packet that had it.
struct ProblemGroup {
    InputProblem first;  ///< the first of them (its offset)
    size_t count = 1;
    uint64_t lastOffset = 0;  ///< the offset of the last of them
};

/// `problems` grouped by file and reason, in order of each group's first problem.
std::vector<ProblemGroup> groupRepeatedProblems(const std::vector<InputProblem>& problems);

/// "FILE: offset N: reason", and for a group of several "FILE: offset N: reason (150 times, the last
/// at offset M)".
std::string describeProblemGroup(const ProblemGroup& group);

}  // namespace tcpscope
