#include "capture/input_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tcpscope {

namespace {
std::string systemReason(const char* what) { return std::string(what) + ": " + std::strerror(errno); }
}  // namespace

FileInputStream::FileInputStream(const std::string& path) {
    if (path == "-") {
        fd_ = STDIN_FILENO;
    } else {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0) {
            throw InputStreamError(systemReason("cannot open"));
        }
        ownsFd_ = true;
    }
    struct stat status {};
    if (::fstat(fd_, &status) == 0) {
        if (S_ISDIR(status.st_mode)) {
            if (ownsFd_) {
                ::close(fd_);
            }
            throw InputStreamError("cannot read: is a directory");
        }
        if (S_ISREG(status.st_mode)) {
            fileSize_ = static_cast<uint64_t>(status.st_size);
            // Tells the kernel to read ahead aggressively; harmless if it declines.
            ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
        }
    }
}

FileInputStream::~FileInputStream() {
    if (ownsFd_) {
        ::close(fd_);
    }
}

size_t FileInputStream::read(uint8_t* destination, size_t capacity) {
    while (true) {
        const ssize_t got = ::read(fd_, destination, capacity);
        if (got >= 0) {
            bytesRead_ += static_cast<uint64_t>(got);
            return static_cast<size_t>(got);
        }
        if (errno != EINTR) {
            throw InputStreamError(systemReason("read failed"));
        }
    }
}

size_t MemoryInputStream::read(uint8_t* destination, size_t capacity) {
    const size_t count = std::min(capacity, bytes_.size() - position_);
    if (count > 0) {
        std::memcpy(destination, bytes_.data() + position_, count);
        position_ += count;
    }
    return count;
}

}  // namespace tcpscope
