#include "sinks/directory_sink.hpp"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "sinks/sink_spec.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kHourNs = int64_t{3600} * 1'000'000'000;
constexpr size_t kMaxOpenFiles = 8;  // records come roughly in time order; a few hours are open at once

int64_t hourOf(int64_t tsNs) {
    return tsNs >= 0 ? tsNs / kHourNs : (tsNs - kHourNs + 1) / kHourNs;
}

std::filesystem::path hourPath(const std::filesystem::path& hostDir, int64_t hour) {
    const auto seconds = static_cast<std::time_t>(hour * 3600);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    return hostDir / fmt::format("{:04}-{:02}-{:02}", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday) /
           fmt::format("{:02}.ndjson.zst", utc.tm_hour);
}

}  // namespace

struct DirectorySink::HourFile {
    int64_t hour = 0;
    std::filesystem::path path;
    std::FILE* out = nullptr;
    ZSTD_CStream* stream = nullptr;
    std::vector<char> buffer = std::vector<char>(ZSTD_CStreamOutSize());

    HourFile() = default;
    HourFile(const HourFile&) = delete;
    HourFile& operator=(const HourFile&) = delete;
    ~HourFile() {  // only after a failure: close() releases both
        if (out != nullptr) {
            std::fclose(out);
        }
        ZSTD_freeCStream(stream);
    }

    // Compresses `input` (mode ZSTD_e_continue) or ends the frame (ZSTD_e_end) and writes what came out.
    void push(std::string_view input, ZSTD_EndDirective mode) {
        ZSTD_inBuffer in{input.data(), input.size(), 0};
        size_t remaining = 0;
        do {
            ZSTD_outBuffer outBuffer{buffer.data(), buffer.size(), 0};
            remaining = ZSTD_compressStream2(stream, &outBuffer, &in, mode);
            if (ZSTD_isError(remaining) != 0) {
                throw std::runtime_error(fmt::format("{}: zstd: {}", path.string(), ZSTD_getErrorName(remaining)));
            }
            if (outBuffer.pos > 0 && std::fwrite(buffer.data(), 1, outBuffer.pos, out) != outBuffer.pos) {
                throw std::runtime_error(fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno)));
            }
        } while (mode == ZSTD_e_end ? remaining != 0 : in.pos < in.size);
    }
};

DirectorySink::DirectorySink(std::filesystem::path root, std::string host, int compressionLevel)
    : hostDir_(std::move(root) / ("host=" + host)), compressionLevel_(compressionLevel) {
    if (!isValidHostName(host)) {  // it names a folder: no '/', no '..'
        throw std::invalid_argument(fmt::format("'{}' is not a host name (letters, digits, '.', '-', '_')", host));
    }
}

DirectorySink::~DirectorySink() {
    try {
        finish();
    } catch (const std::exception&) {
        // Whoever wants the error calls finish() first; here the files are only released.
    }
}

DirectorySink::HourFile& DirectorySink::fileOf(int64_t hour) {
    if (!open_.empty() && open_.back()->hour == hour) {
        return *open_.back();
    }
    const auto found = std::find_if(open_.begin(), open_.end(), [&](const auto& file) { return file->hour == hour; });
    if (found != open_.end()) {
        std::rotate(found, found + 1, open_.end());
        return *open_.back();
    }
    if (open_.size() >= kMaxOpenFiles) {
        close(*open_.front());
        open_.erase(open_.begin());
    }
    auto file = std::make_unique<HourFile>();
    file->hour = hour;
    file->path = hourPath(hostDir_, hour);
    std::error_code error;
    std::filesystem::create_directories(file->path.parent_path(), error);
    if (error) {
        throw std::runtime_error(
            fmt::format("{}: cannot create: {}", file->path.parent_path().string(), error.message()));
    }
    file->out = std::fopen(file->path.c_str(), "ab");  // a new frame after those of earlier exports
    if (file->out == nullptr) {
        throw std::runtime_error(fmt::format("{}: cannot open: {}", file->path.string(), std::strerror(errno)));
    }
    file->stream = ZSTD_createCStream();
    ZSTD_CCtx_setParameter(file->stream, ZSTD_c_compressionLevel, compressionLevel_);
    if (std::find(files_.begin(), files_.end(), file->path) == files_.end()) {
        files_.push_back(file->path);
    }
    open_.push_back(std::move(file));
    return *open_.back();
}

void DirectorySink::close(HourFile& file) {
    file.push({}, ZSTD_e_end);
    ZSTD_freeCStream(file.stream);
    file.stream = nullptr;
    const bool failed = std::fclose(file.out) != 0;
    file.out = nullptr;
    if (failed) {
        throw std::runtime_error(fmt::format("{}: cannot write: {}", file.path.string(), std::strerror(errno)));
    }
}

void DirectorySink::write(RecordType /*type*/, int64_t tsNs, std::string_view line) {
    HourFile& file = fileOf(hourOf(tsNs));
    file.push(line, ZSTD_e_continue);
    file.push("\n", ZSTD_e_continue);
    ++recordsWritten_;
}

void DirectorySink::finish() {
    while (!open_.empty()) {
        std::unique_ptr<HourFile> file = std::move(open_.back());
        open_.pop_back();
        close(*file);
    }
}

}  // namespace tcpscope
