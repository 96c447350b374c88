#include "capture/capture_error.hpp"

#include <fmt/format.h>

namespace tcpscope {

std::string InputProblem::describe() const { return fmt::format("{}: offset {}: {}", file, offset, reason); }

CaptureError::CaptureError(InputProblem problem) : std::runtime_error(problem.describe()), problem_(std::move(problem)) {}

}  // namespace tcpscope
