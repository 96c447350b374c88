#include "capture/capture_error.hpp"

#include <fmt/format.h>

#include "text/valid_utf8.hpp"

namespace tcpscope {

// The file's name as the system gave it may hold any bytes; the line is read as text.
std::string InputProblem::describe() const {
    return fmt::format("{}: offset {}: {}", validUtf8(file), offset, reason);
}

CaptureError::CaptureError(InputProblem problem) : std::runtime_error(problem.describe()), problem_(std::move(problem)) {}

}  // namespace tcpscope
