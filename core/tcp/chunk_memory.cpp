#include "tcp/chunk_memory.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

namespace tcpscope {
namespace {

// A file chunk takes whole pages; the smallest the file takes is one.
constexpr size_t kPageBytes = ChunkSpill::kMinBytes;
// The file grows, and is reserved on disk, a segment at a time; each segment is one mapping. The
// newest segments hold the chunks of the connections seen last, read and written all the time, and
// stay mapped; the older ones are trimmed. 64 MB is about 12 s of W1's connections.
constexpr size_t kSegmentBytes = size_t{64} << 20;
// The newest segments are never trimmed: they hold the connections seen last, which the detectors
// read and write all the time. Older records they read (TIME_WAIT, port pools, late segments look a
// minute back; W1 at 10,000 connections a second fills 2 segments in about 24 s) are mapped again
// from the page cache. At W1 100 M, keeping 12 segments (896 MB mapped) is 14 % faster and holds
// 0.7 GB more at the peak; keeping 4 (384 MB) is as slow as 2 and holds 0.14 GB more.
constexpr size_t kKeptSegments = 2;
// What may be mapped besides them before the older segments are trimmed: the end of an analysis
// walks every connection, mapping pages from the cache at several GB a second (16 at each fault).
// Checked every 10 ms on the process's shared resident pages (the file's and the program's own few
// MB): at 50 ms the walks overshot the budget by up to 1.3 GB.
constexpr size_t kMappedBudgetBytes = (kKeptSegments + 1) * kSegmentBytes;
constexpr auto kCheckEvery = std::chrono::milliseconds(10);

// The process's resident pages of shared file mappings, in bytes (0 if unknown).
size_t mappedFileBytes() {
    std::FILE* statm = std::fopen("/proc/self/statm", "r");
    if (statm == nullptr) {
        return 0;
    }
    unsigned long long total = 0;
    unsigned long long resident = 0;
    unsigned long long shared = 0;
    const int read = std::fscanf(statm, "%llu %llu %llu", &total, &resident, &shared);
    std::fclose(statm);
    return read == 3 ? static_cast<size_t>(shared) * kPageBytes : 0;
}
constexpr std::align_val_t kChunkAlignment{64};

size_t roundToPages(size_t bytes) { return (bytes + kPageBytes - 1) / kPageBytes * kPageBytes; }

// The spill files of the process and the chunks carved from them. Never destroyed: chunks from a
// file may outlive any spill and are given back while the process runs.
class SpillArena {
public:
    void turnOn(const std::filesystem::path& directory) {
        std::unique_lock lock(mutex_);
        error_.clear();
        fd_ = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        if (fd_ < 0) {
            error_ = "spill file in " + directory.string() + ": " + std::strerror(errno);
            return;
        }
        directory_ = directory;
        fileBytes_ = 0;
        on_ = true;
        stopTrimming_ = false;
        trimmer_ = std::thread([this] { trimUntilStopped(); });
    }

    void turnOff() {
        {
            std::lock_guard lock(mutex_);
            on_ = false;
            stopTrimming_ = true;
        }
        wake_.notify_all();
        if (trimmer_.joinable()) {
            trimmer_.join();
        }
    }

    // A chunk from the file, or null (spill off, too large, or the file cannot grow).
    void* take(size_t bytes) {
        const size_t pages = roundToPages(bytes);
        std::lock_guard lock(mutex_);
        if (!on_ || pages > kSegmentBytes) {
            return nullptr;
        }
        if (segments_.empty() || segments_.back().fd != fd_ || segments_.back().used + pages > kSegmentBytes) {
            if (!grow()) {
                return nullptr;
            }
        }
        Segment& segment = segments_.back();
        char* chunk = segment.base + segment.used;
        segment.used += pages;
        inFile_ += pages;
        return chunk;
    }

    // Frees a chunk's pages in the file (page cache and disk). False if the chunk is not the file's.
    bool give(void* chunk, size_t bytes) {
        const auto* address = static_cast<const char*>(chunk);
        std::lock_guard lock(mutex_);
        for (const Segment& segment : segments_) {
            if (address >= segment.base && address < segment.base + kSegmentBytes) {
                const size_t pages = roundToPages(bytes);
                ::fallocate(segment.fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                            segment.offset + (address - segment.base), static_cast<off_t>(pages));
                inFile_ -= pages;
                return true;
            }
        }
        return false;
    }

    // Drops the file's pages from the resident set (but the newest segments' unless `all`). A
    // shared file mapping loses nothing this way: a page written since it was mapped stays in the
    // page cache, dirty, and is mapped again by the next read or write.
    void trim(bool all) {
        std::vector<std::pair<char*, size_t>> mapped;
        {
            std::lock_guard lock(mutex_);
            const size_t kept = all ? 0 : std::min(kKeptSegments, segments_.size());
            const size_t trimmed = segments_.size() - kept;
            for (size_t segment = 0; segment < trimmed; ++segment) {
                mapped.emplace_back(segments_[segment].base, segments_[segment].used);
            }
        }
        for (const auto& [base, used] : mapped) {
            ::madvise(base, used, MADV_DONTNEED);
        }
    }

    std::string error() const {
        std::lock_guard lock(mutex_);
        return error_;
    }
    size_t bytesInFile() const {
        std::lock_guard lock(mutex_);
        return inFile_;
    }

private:
    struct Segment {
        char* base = nullptr;
        int fd = -1;
        off_t offset = 0;  // in its file
        size_t used = 0;   // bytes carved from its start
    };

    // Reserves the next segment on disk first, so that a write into it can never find the disk full.
    bool grow() {
        const int reserved = ::posix_fallocate(fd_, fileBytes_, kSegmentBytes);
        void* base = reserved == 0 ? ::mmap(nullptr, kSegmentBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, fileBytes_)
                                   : MAP_FAILED;
        if (base == MAP_FAILED) {
            error_ = "spill file in " + directory_.string() + ": " + std::strerror(reserved != 0 ? reserved : errno) +
                     "; later records stay in memory";
            on_ = false;
            return false;
        }
        // Pages created and read one at a time: a read of an old connection's record maps its
        // neighbours too (fault-around), but not the large folios readahead would make.
        ::madvise(base, kSegmentBytes, MADV_RANDOM);
        segments_.push_back({static_cast<char*>(base), fd_, fileBytes_, 0});
        fileBytes_ += static_cast<off_t>(kSegmentBytes);
        return true;
    }

    void trimUntilStopped() {
        std::unique_lock lock(mutex_);
        while (!wake_.wait_for(lock, kCheckEvery, [this] { return stopTrimming_; })) {
            lock.unlock();
            if (mappedFileBytes() > kMappedBudgetBytes) {
                trim(false);
            }
            lock.lock();
        }
    }

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::thread trimmer_;
    bool on_ = false;
    bool stopTrimming_ = false;
    int fd_ = -1;  // the file new segments come from
    off_t fileBytes_ = 0;
    std::filesystem::path directory_;
    std::vector<Segment> segments_;  // of every spill file so far
    size_t inFile_ = 0;
    std::string error_;
};

SpillArena& arena() {
    static auto* const instance = new SpillArena();  // never destroyed: see SpillArena
    return *instance;
}

}  // namespace

void* chunk_memory::allocate(size_t bytes) {
    if (bytes >= ChunkSpill::kMinBytes) {
        if (void* chunk = arena().take(bytes)) {
            return chunk;
        }
    }
    return ::operator new(bytes, kChunkAlignment);
}

void chunk_memory::release(void* chunk, size_t bytes) noexcept {
    if (bytes >= ChunkSpill::kMinBytes && arena().give(chunk, bytes)) {
        return;
    }
    ::operator delete(chunk, kChunkAlignment);
}

ChunkSpill::ChunkSpill(const std::filesystem::path& directory) { arena().turnOn(directory); }

ChunkSpill::~ChunkSpill() { arena().turnOff(); }

std::string ChunkSpill::error() { return arena().error(); }

size_t ChunkSpill::bytesInFile() { return arena().bytesInFile(); }

void ChunkSpill::trimNow() { arena().trim(true); }

}  // namespace tcpscope
