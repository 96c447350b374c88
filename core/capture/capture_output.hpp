#pragma once
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "capture/capture_error.hpp"

namespace tcpscope {

/// Thrown when a capture file (pcap or pcapng) cannot be created or written; says which file, at
/// which offset, and why.
class CaptureWriteError : public std::runtime_error {
public:
    explicit CaptureWriteError(InputProblem problem)
        : std::runtime_error(problem.describe()), problem_(std::move(problem)) {}
    [[nodiscard]] const InputProblem& problem() const { return problem_; }

private:
    InputProblem problem_;
};

/// Where the capture writers put their bytes: a file they create, or an open descriptor (a pipe,
/// standard output) they do not close. Each write() is whole or throws CaptureWriteError.
class CaptureOutput {
public:
    /// Creates (or truncates) `path`.
    explicit CaptureOutput(const std::string& path);
    /// Writes to `fd`, which stays open; `name` stands for it in messages (e.g. "standard output").
    CaptureOutput(int fd, std::string name);
    /// Closes an owned file (errors are dropped here: call close() to see them).
    ~CaptureOutput();
    CaptureOutput(const CaptureOutput&) = delete;
    CaptureOutput& operator=(const CaptureOutput&) = delete;

    /// Writes every byte (one write(2) unless the kernel takes less).
    void write(std::span<const uint8_t> bytes);
    /// Asks the kernel to put what was written on disk (fsync); for files, not pipes.
    void sync();
    /// Closes an owned file; a borrowed descriptor is only let go. Further writes throw.
    void close();

    [[nodiscard]] bool isOpen() const { return fd_ >= 0; }
    [[nodiscard]] const std::string& name() const { return name_; }
    /// Bytes written so far.
    [[nodiscard]] uint64_t offset() const { return offset_; }
    /// Throws CaptureWriteError for this file at `offset`.
    [[noreturn]] void fail(uint64_t offset, const std::string& reason) const;

private:
    void requireOpen() const;

    std::string name_;
    int fd_ = -1;
    bool ownsFd_ = false;
    uint64_t offset_ = 0;
};

}  // namespace tcpscope
