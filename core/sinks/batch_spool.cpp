#include "sinks/batch_spool.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace tcpscope {

namespace {

// A batch's file: SEQUENCE.TYPE.ROWS.ID.ready, or .tried once sent without a clear answer.
std::string fileName(const SpooledBatch& batch) {
    return fmt::format("{:016}.{}.{}.{}.{}", batch.sequence, recordTypeName(batch.type), batch.rows, batch.id,
                       batch.tried ? "tried" : "ready");
}

template <typename Number>
bool parseNumber(std::string_view text, Number& value) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

bool parseFileName(const std::string& name, SpooledBatch& batch) {
    std::vector<std::string_view> parts;
    std::string_view rest = name;
    for (size_t dot = rest.find('.'); dot != std::string_view::npos; dot = rest.find('.')) {
        parts.push_back(rest.substr(0, dot));
        rest.remove_prefix(dot + 1);
    }
    parts.push_back(rest);
    if (parts.size() != 5 || (parts[4] != "ready" && parts[4] != "tried") || !parseNumber(parts[0], batch.sequence) ||
        !parseNumber(parts[2], batch.rows) || parts[3].empty()) {
        return false;
    }
    for (const RecordType type : {RecordType::Flow, RecordType::Finding, RecordType::Series}) {
        if (parts[1] == recordTypeName(type)) {
            batch.type = type;
            batch.id = std::string(parts[3]);
            batch.tried = parts[4] == "tried";
            return true;
        }
    }
    return false;
}

}  // namespace

BatchSpool::BatchSpool(std::filesystem::path dir, uint64_t limitBytes) : dir_(std::move(dir)), limitBytes_(limitBytes) {
    std::error_code error;
    std::filesystem::create_directories(dir_, error);
    if (error) {
        throw std::runtime_error(fmt::format("spool {}: cannot create: {}", dir_.string(), error.message()));
    }
    lockFd_ = ::open((dir_ / "lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lockFd_ < 0) {
        throw std::runtime_error(
            fmt::format("spool {}: cannot open its lock: {}", dir_.string(), std::strerror(errno)));
    }
    if (::flock(lockFd_, LOCK_EX | LOCK_NB) != 0) {
        ::close(lockFd_);
        throw std::runtime_error(fmt::format("spool {}: in use by another export", dir_.string()));
    }
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
        const std::string name = entry.path().filename().string();
        SpooledBatch batch;
        if (name.ends_with(".tmp")) {
            std::filesystem::remove(entry.path(), error);  // a batch a crash left half written
        } else if (entry.is_regular_file() && parseFileName(name, batch)) {
            batch.path = entry.path();
            batch.bytes = entry.file_size();
            batches_.push_back(std::move(batch));
        }
    }
    std::sort(batches_.begin(), batches_.end(),
              [](const SpooledBatch& a, const SpooledBatch& b) { return a.sequence < b.sequence; });
    for (const SpooledBatch& batch : batches_) {
        rows_ += batch.rows;
        bytes_ += batch.bytes;
    }
    rowsFromEarlierRuns_ = rows_;
    nextSequence_ = batches_.empty() ? 1 : batches_.back().sequence + 1;
}

BatchSpool::~BatchSpool() {
    if (lockFd_ >= 0) {
        ::close(lockFd_);  // releases the lock
    }
}

bool BatchSpool::add(RecordType type, const std::string& id, uint64_t rows, std::string_view body) {
    if (bytes_ + body.size() > limitBytes_) {
        return false;
    }
    SpooledBatch batch{nextSequence_, type, id, rows, body.size(), false, {}};
    batch.path = dir_ / fileName(batch);
    const std::filesystem::path temporary = batch.path.string() + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out.write(body.data(), static_cast<std::streamsize>(body.size()));
        out.flush();
        if (!out) {
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            throw std::runtime_error(fmt::format("spool {}: cannot write {}", dir_.string(), temporary.string()));
        }
    }
    std::filesystem::rename(temporary, batch.path);
    ++nextSequence_;
    rows_ += rows;
    bytes_ += body.size();
    batches_.push_back(std::move(batch));
    return true;
}

std::string BatchSpool::read(const SpooledBatch& batch) const {
    std::ifstream in(batch.path, std::ios::binary);
    std::ostringstream body;
    body << in.rdbuf();
    if (!in) {
        throw std::runtime_error(fmt::format("spool {}: cannot read {}", dir_.string(), batch.path.string()));
    }
    return body.str();
}

void BatchSpool::markOldestTried() {
    SpooledBatch& batch = batches_.front();
    if (batch.tried) {
        return;
    }
    batch.tried = true;
    const std::filesystem::path tried = dir_ / fileName(batch);
    std::filesystem::rename(batch.path, tried);
    batch.path = tried;
}

void BatchSpool::removeOldest() {
    const SpooledBatch& batch = batches_.front();
    std::filesystem::remove(batch.path);
    rows_ -= batch.rows;
    bytes_ -= batch.bytes;
    batches_.pop_front();
}

}  // namespace tcpscope
