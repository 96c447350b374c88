#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace tcpscope {

/// A problem in an input file, located by file name and byte offset.
struct InputProblem {
    std::string file;
    uint64_t offset = 0;
    std::string reason;

    /// "FILE: offset N: REASON", the one-line form shown to users.
    [[nodiscard]] std::string describe() const;
};

/// Thrown when an input cannot be read any further (unreadable file, unknown format, corrupt record).
class CaptureError : public std::runtime_error {
public:
    explicit CaptureError(InputProblem problem);
    [[nodiscard]] const InputProblem& problem() const { return problem_; }

private:
    InputProblem problem_;
};

}  // namespace tcpscope
