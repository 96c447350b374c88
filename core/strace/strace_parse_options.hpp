#pragma once
#include <cstddef>
#include <cstdint>

#include "engine/load_progress.hpp"
#include "strace/strace_format.hpp"

namespace tcpscope {

/// How to parse a strace log.
struct StraceParseOptions {
    /// Pid of lines that print none (a single traced process, strace -p). Files named NAME.PID
    /// (strace -ff) use their PID instead unless this is set.
    int32_t defaultPid = 0;
    /// None: tell -ttt (epoch) from -r (relative) by the first timestamp's size; else force it.
    StraceTimeBase timeBase = StraceTimeBase::None;
    /// Keep calls of kind Other (mmap, openat, futex, ...). Off saves memory on huge logs.
    bool keepOtherCalls = true;
    /// Skipped lines kept as examples.
    size_t maxUnparsedExamples = 10;
    /// Longer lines are skipped (counted as unparsed); bounds the memory one line can take.
    size_t maxLineBytes = size_t{4} << 20;
    /// Optional progress (bytesDone, bytesTotal, finished) and stop request, polled every MiB.
    LoadProgress* progress = nullptr;
    const StopToken* stop = nullptr;
};

}  // namespace tcpscope
