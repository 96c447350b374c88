#include "tcp/packet_index.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

#include <fmt/format.h>

namespace tcpscope {

namespace {
constexpr uint16_t kFromServerBit = 0x8000;
constexpr int kOffsetBits = 48;
constexpr uint64_t kOffsetMask = (uint64_t{1} << kOffsetBits) - 1;

// An unlinked file in `directory`: O_TMPFILE where the file system has it, else a named file
// removed at once. Returns -1 with errno set.
int openUnlinkedFile(const std::string& directory) {
    const int fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR)) {
        return fd;
    }
    std::string name = directory + "/tcpscope-index.XXXXXX";
    const int named = ::mkostemp(name.data(), O_CLOEXEC);
    if (named >= 0) {
        ::unlink(name.c_str());
    }
    return named;
}

bool writeAll(int fd, const void* data, size_t bytes, off_t offset) {
    const auto* next = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t written = ::pwrite(fd, next, bytes, offset);
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            if (written == 0) {
                errno = ENOSPC;
            }
            return false;
        }
        next += written;
        bytes -= static_cast<size_t>(written);
        offset += written;
    }
    return true;
}
}  // namespace

PacketIndex::~PacketIndex() { release(); }

PacketIndex::PacketIndex(PacketIndex&& other) noexcept
    : chunks_(std::move(other.chunks_)),
      escapes_(std::move(other.escapes_)),
      escapeCount_(std::exchange(other.escapeCount_, 0)),
      size_(std::exchange(other.size_, 0)),
      spilledChunks_(std::exchange(other.spilledChunks_, 0)),
      residentChunks_(std::exchange(other.residentChunks_, 0)),
      spillFd_(std::exchange(other.spillFd_, -1)),
      spillProblem_(std::move(other.spillProblem_)) {
    other.chunks_.clear();
    other.escapes_.clear();
}

PacketIndex& PacketIndex::operator=(PacketIndex&& other) noexcept {
    if (this != &other) {
        release();
        chunks_ = std::move(other.chunks_);
        other.chunks_.clear();
        escapes_ = std::move(other.escapes_);
        other.escapes_.clear();
        escapeCount_ = std::exchange(other.escapeCount_, 0);
        size_ = std::exchange(other.size_, 0);
        spilledChunks_ = std::exchange(other.spilledChunks_, 0);
        residentChunks_ = std::exchange(other.residentChunks_, 0);
        spillFd_ = std::exchange(other.spillFd_, -1);
        spillProblem_ = std::move(other.spillProblem_);
    }
    return *this;
}

void PacketIndex::release() {
    chunks_.clear();  // frees or unmaps the chunks no snapshot holds
    escapes_.clear();
    escapeCount_ = 0;
    spilledChunks_ = 0;
    if (spillFd_ >= 0) {
        ::close(spillFd_);
        spillFd_ = -1;
    }
}

std::shared_ptr<const PacketIndex> PacketIndex::snapshot() const {
    auto copy = std::make_shared<PacketIndex>();
    copy->chunks_ = chunks_;
    copy->escapes_ = escapes_;
    if (!escapes_.empty()) {
        // The newest chunk's escapes still grow: the snapshot takes them as they are now.
        copy->escapes_.back() = std::make_shared<Escapes>(*escapes_.back());
    }
    copy->escapeCount_ = escapeCount_;
    copy->size_ = size_;
    copy->spilledChunks_ = spilledChunks_;
    return copy;
}

uint16_t PacketIndex::storedAnalysis(size_t index) const {
    // atomic_ref needs a mutable object; only loads are made through it here.
    auto& stored = const_cast<uint16_t&>(chunk(index).analysis[index & kMask]);  // NOLINT(cppcoreguidelines-pro-type-const-cast)
    return std::atomic_ref<uint16_t>(stored).load(std::memory_order_relaxed);
}

void PacketIndex::spillTo(const PacketIndexSpill& spill) {
    if (spill.directory.empty() || spillFd_ >= 0) {
        return;
    }
    spillFd_ = openUnlinkedFile(spill.directory);
    if (spillFd_ < 0) {
        stopSpilling(fmt::format("{}: cannot make the packet index file there ({}); the index stays in memory",
                                 spill.directory, std::strerror(errno)));
        return;
    }
    residentChunks_ = std::max<size_t>(spill.residentChunks, 1);
    spillProblem_.clear();
}

void PacketIndex::stopSpilling(std::string problem) {
    spillProblem_ = std::move(problem);
    if (spillFd_ >= 0) {
        ::close(spillFd_);  // the mappings made so far stay valid without the descriptor
        spillFd_ = -1;
    }
}

void PacketIndex::spillOldest() {
    if (spillFd_ < 0 || chunks_.size() - spilledChunks_ <= residentChunks_) {
        return;
    }
    const Chunk* const heap = chunks_[spilledChunks_].get();
    const auto offset = static_cast<off_t>(spilledChunks_ * kChunkBytes);
    // The columns only: the padding is never read (mapped past the end of the file, it is not touched).
    if (!writeAll(spillFd_, static_cast<const Columns*>(heap), sizeof(Columns), offset)) {
        stopSpilling(fmt::format("cannot write the packet index file ({}); the rest of the index stays in memory",
                                 std::strerror(errno)));
        return;
    }
    void* mapped = ::mmap(nullptr, kChunkBytes, PROT_READ | PROT_WRITE, MAP_SHARED, spillFd_, offset);
    if (mapped == MAP_FAILED) {
        stopSpilling(fmt::format("cannot map the packet index file ({}); the rest of the index stays in memory",
                                 std::strerror(errno)));
        return;
    }
    // The heap chunk is freed here, or by the last snapshot that still reads it.
    chunks_[spilledChunks_++] =
        std::shared_ptr<Chunk>(static_cast<Chunk*>(mapped), [](Chunk* chunk) { ::munmap(chunk, kChunkBytes); });
}

size_t PacketIndex::append(const IndexedPacket& packet) {
    if ((size_ & kMask) == 0) {
        // for_overwrite: the columns are written before they are read.
        chunks_.push_back(std::make_unique_for_overwrite<Chunk>());
        escapes_.push_back(std::make_shared<Escapes>());
        spillOldest();
    }
    Chunk& target = *chunks_.back();
    Escapes& escapes = *escapes_.back();
    const size_t slot = size_ & kMask;
    const size_t block = slot >> kBlockBits;
    const uint64_t place = (uint64_t{packet.fileIndex} << kOffsetBits) | (packet.recordOffset & kOffsetMask);
    if ((slot & (kBlockSize - 1)) == 0) {
        target.tsBase[block] = packet.tsNs;
        target.placeBase[block] = place;
        target.frameBase[block] = packet.frame;
    }
    // Unsigned differences: a value below the base wraps to a large one and is escaped.
    const uint64_t tsDelta = static_cast<uint64_t>(packet.tsNs) - static_cast<uint64_t>(target.tsBase[block]);
    const uint64_t placeDelta = place - target.placeBase[block];
    const uint32_t frameDelta = packet.frame - target.frameBase[block];
    const auto escape = [&](std::vector<Escape>& table, uint64_t value) {
        table.push_back({static_cast<uint32_t>(slot), value});
        ++escapeCount_;
    };
    if (tsDelta < kEscaped32) {
        target.tsDelta[slot] = static_cast<uint32_t>(tsDelta);
    } else {
        target.tsDelta[slot] = kEscaped32;
        escape(escapes.ts, static_cast<uint64_t>(packet.tsNs));
    }
    if (placeDelta < kEscaped32) {
        target.placeDelta[slot] = static_cast<uint32_t>(placeDelta);
    } else {
        target.placeDelta[slot] = kEscaped32;
        escape(escapes.place, place);
    }
    if (packet.frame >= target.frameBase[block] && frameDelta < kEscaped16) {
        target.frameDelta[slot] = static_cast<uint16_t>(frameDelta);
    } else {
        target.frameDelta[slot] = kEscaped16;
        escape(escapes.frame, packet.frame);
    }
    target.connection[slot] = packet.connection;
    target.seq[slot] = packet.seq;
    target.ack[slot] = packet.ack;
    target.lengthAndFlags[slot] = (std::min(packet.payloadLength, kMaxPayloadLength) << 8) | packet.tcpFlags;
    target.window[slot] = packet.window;
    target.analysis[slot] = static_cast<uint16_t>((packet.analysis & ~kFromServerBit) |
                                                  (packet.fromServer ? kFromServerBit : 0));
    return size_++;
}

uint64_t PacketIndex::escaped(const std::vector<Escape>& escapes, size_t slot) {
    const auto found = std::lower_bound(escapes.begin(), escapes.end(), slot,
                                        [](const Escape& escape, size_t wanted) { return escape.slot < wanted; });
    return found->value;  // present: the column says so
}

void PacketIndex::setAnalysis(size_t index, AnalysisFlags flags) {
    // A mapped chunk writes through; a snapshot may be reading the same value on another thread.
    const std::atomic_ref<uint16_t> stored(chunks_[index >> kChunkBits]->analysis[index & kMask]);
    stored.store(static_cast<uint16_t>((stored.load(std::memory_order_relaxed) & kFromServerBit) |
                                       (flags & ~kFromServerBit)),
                 std::memory_order_relaxed);
}

size_t PacketIndex::firstAtOrAfterFrame(uint32_t wanted) const {
    size_t low = 0;
    size_t high = size_;
    while (low < high) {
        const size_t middle = low + (high - low) / 2;
        if (frame(middle) < wanted) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low;
}

size_t PacketIndex::positionOfFrame(uint32_t wanted) const {
    const size_t position = firstAtOrAfterFrame(wanted);
    return position < size_ && frame(position) == wanted ? position : size_;
}

IndexedPacket PacketIndex::at(size_t index) const {
    const Chunk& source = chunk(index);
    const size_t slot = index & kMask;
    const uint64_t where = place(index);
    IndexedPacket packet;
    packet.tsNs = tsNs(index);
    packet.recordOffset = where & kOffsetMask;
    packet.fileIndex = static_cast<uint32_t>(where >> kOffsetBits);
    packet.frame = frame(index);
    packet.connection = source.connection[slot];
    packet.seq = source.seq[slot];
    packet.ack = source.ack[slot];
    packet.payloadLength = source.lengthAndFlags[slot] >> 8;
    packet.tcpFlags = static_cast<uint8_t>(source.lengthAndFlags[slot] & 0xff);
    packet.window = source.window[slot];
    const uint16_t analysis = storedAnalysis(index);
    packet.fromServer = (analysis & kFromServerBit) != 0;
    packet.analysis = static_cast<AnalysisFlags>(analysis & ~kFromServerBit);
    return packet;
}

}  // namespace tcpscope
