#pragma once
#include <cstddef>
#include <filesystem>
#include <string>

namespace tcpscope {

/// Where ChunkedStore's chunks live: on the heap, or, while a ChunkSpill is on, the large ones in
/// an unlinked file mapped shared. The kernel keeps such a chunk in its page cache and writes it
/// out under memory pressure; a trimming thread drops the file's older pages from the process's
/// resident set whenever more than a few hundred MB of them are mapped, so they are mapped again
/// (from the cache) only when read. The bytes
/// are the same either way: where a chunk lives changes no answer, only the memory the analysis
/// holds, which then follows the records touched lately instead of every connection ever seen.
namespace chunk_memory {

/// Memory for a chunk of `bytes`, aligned to 64 (a cache line). Never null (throws std::bad_alloc).
void* allocate(size_t bytes);
/// Gives back a chunk from allocate() with the same `bytes`.
void release(void* chunk, size_t bytes) noexcept;

}  // namespace chunk_memory

/// Turns the spill file on for its lifetime (one at a time in a process): chunks allocated meanwhile
/// of at least kMinBytes live in a file in `directory`, reserved on disk as it grows, so that a full
/// disk makes later chunks come from the heap instead (error() says so) and never faults a write.
/// Chunks allocated from the file stay valid after the spill is turned off; the file is deleted
/// when the process ends.
class ChunkSpill {
public:
    /// Chunks smaller than a page stay on the heap (a page is the least a file chunk takes).
    static constexpr size_t kMinBytes = 4096;

    explicit ChunkSpill(const std::filesystem::path& directory);
    ~ChunkSpill();
    ChunkSpill(const ChunkSpill&) = delete;
    ChunkSpill& operator=(const ChunkSpill&) = delete;

    /// Why chunks went to the heap instead of the file ("" if none did): the file could not be made
    /// or grown, with its directory and the system's reason.
    [[nodiscard]] static std::string error();
    /// Bytes of chunks living in the file now.
    [[nodiscard]] static size_t bytesInFile();
    /// Drops every page of the file from the resident set now, the newest too (what the trimming
    /// thread does to the older ones): the next read maps them again from the cache.
    static void trimNow();
};

}  // namespace tcpscope
