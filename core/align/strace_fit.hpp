#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "align/strace_alignment.hpp"
#include "engine/analysis_engine.hpp"

namespace tcpscope {

/// Why an strace log cannot be read with the capture it was given with.
enum class StraceMismatchKind : uint8_t {
    NotStrace,     ///< the file holds no system call as strace prints them (another kind of text)
    NoOverlap,     ///< its calls, on the capture's clock, all fall before the first packet or after the last
    NoSocketTied,  ///< none of its TCP sockets is tied to a connection of the capture (or it has none)
};

/// A log that does not fit the capture, and why, in one line ("FILE: reason").
struct StraceMismatch {
    StraceMismatchKind kind = StraceMismatchKind::NotStrace;
    uint32_t log = 0;  ///< index into StraceAlignment::logs
    std::string reason;
};

/// The first log of `alignment` that does not fit the capture of `engine`, or nullopt when every
/// one does: a log of another process, host or day, or a file that is no strace log at all, gives
/// calls that explain nothing in the capture, so it is an error of the input, not an empty result.
std::optional<StraceMismatch> findStraceMismatch(const StraceAlignment& alignment, const AnalysisEngine& engine);

}  // namespace tcpscope
