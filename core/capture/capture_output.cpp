#include "capture/capture_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tcpscope {

namespace {

std::string systemReason(const char* what, int error) {
    std::string reason = what;
    reason += ": ";
    reason += std::strerror(error);
    return reason;
}

}  // namespace

CaptureOutput::CaptureOutput(const std::string& path) : name_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) {
        fail(0, systemReason("cannot create the file", errno));
    }
    ownsFd_ = true;
}

CaptureOutput::CaptureOutput(int fd, std::string name) : name_(std::move(name)), fd_(fd) {
    if (fd_ < 0) {
        fail(0, "no open file descriptor to write to");
    }
}

CaptureOutput::~CaptureOutput() {
    if (ownsFd_ && fd_ >= 0) {
        ::close(fd_);
    }
}

void CaptureOutput::write(std::span<const uint8_t> bytes) {
    requireOpen();
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t wrote = ::write(fd_, bytes.data() + done, bytes.size() - done);
        if (wrote < 0) {
            if (errno == EINTR) {
                continue;
            }
            const int error = errno;
            offset_ += done;  // the offset in the message is where the file really ends
            fail(offset_, systemReason("cannot write", error));
        }
        done += static_cast<size_t>(wrote);
    }
    offset_ += done;
}

void CaptureOutput::sync() {
    requireOpen();
    if (::fsync(fd_) != 0) {
        fail(offset_, systemReason("cannot sync", errno));
    }
}

void CaptureOutput::close() {
    const int fd = fd_;
    fd_ = -1;
    if (ownsFd_ && fd >= 0 && ::close(fd) != 0) {
        fail(offset_, systemReason("cannot close the file", errno));
    }
}

void CaptureOutput::requireOpen() const {
    if (fd_ < 0) {
        fail(offset_, "the file is already closed");
    }
}

void CaptureOutput::fail(uint64_t offset, const std::string& reason) const {
    throw CaptureWriteError(InputProblem{name_, offset, reason});
}

}  // namespace tcpscope
