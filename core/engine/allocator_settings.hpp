#pragma once

namespace tcpscope {

/// Sets the C library's allocator up for analyses of large captures; called once at the start of
/// a program, before its threads start. By default glibc gives memory back to the kernel as soon
/// as 128 KiB are free at the top of the heap and grows the heap in small steps, so an analysis
/// that frees and reallocates hundreds of megabytes (detector state at the end of a file, then
/// the findings and the report) gets fresh pages again, each zero-filled by the kernel. This keeps
/// up to 256 MiB free in the heap and grows it 64 MiB at a time: on W1 1 M, 39 % fewer page faults
/// (61.8 k to 37.7 k) and half the system time, for 5 MB more peak memory.
void tuneAllocatorForLargeAnalyses();

}  // namespace tcpscope
