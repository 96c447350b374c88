#pragma once
#include <cstdint>
#include <deque>
#include <filesystem>
#include <string>
#include <string_view>

#include "records/record_sink.hpp"

namespace tcpscope {

/// A batch of rows waiting in the spool to be sent.
struct SpooledBatch {
    uint64_t sequence = 0;  ///< the order batches were made in, also across runs
    RecordType type = RecordType::Flow;
    std::string id;  ///< the batch id stored in its rows (`batch_id`)
    uint64_t rows = 0;
    uint64_t bytes = 0;
    bool tried = false;  ///< sent before without a clear answer: it may have landed
    std::filesystem::path path;
};

/// The batches a sink has made and not yet delivered, one file each in a folder, kept across runs
/// and bounded in bytes. Files are written whole (a temporary name, then renamed), so a crash leaves
/// either the batch or nothing. One process at a time: the folder is locked while a spool is open.
class BatchSpool {
public:
    /// Opens (creating) `dir` and takes the batches earlier runs left there, oldest first. Throws
    /// std::runtime_error when the folder cannot be used or another process holds it.
    BatchSpool(std::filesystem::path dir, uint64_t limitBytes);
    ~BatchSpool();
    BatchSpool(const BatchSpool&) = delete;
    BatchSpool& operator=(const BatchSpool&) = delete;

    /// Stores a batch; false (nothing stored) when it would take the spool past its limit.
    bool add(RecordType type, const std::string& id, uint64_t rows, std::string_view body);
    [[nodiscard]] bool empty() const { return batches_.empty(); }
    /// The oldest batch; the spool must not be empty.
    [[nodiscard]] const SpooledBatch& oldest() const { return batches_.front(); }
    /// The rows of a batch, as stored.
    [[nodiscard]] std::string read(const SpooledBatch& batch) const;
    /// Notes that the oldest batch was sent without a clear answer (kept across runs).
    void markOldestTried();
    /// Deletes the oldest batch (delivered).
    void removeOldest();

    [[nodiscard]] size_t batches() const { return batches_.size(); }
    [[nodiscard]] uint64_t rows() const { return rows_; }
    [[nodiscard]] uint64_t bytes() const { return bytes_; }
    [[nodiscard]] uint64_t limitBytes() const { return limitBytes_; }
    /// Rows of the batches found from earlier runs when the spool was opened.
    [[nodiscard]] uint64_t rowsFromEarlierRuns() const { return rowsFromEarlierRuns_; }
    [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }

private:
    std::filesystem::path dir_;
    uint64_t limitBytes_;
    int lockFd_ = -1;
    std::deque<SpooledBatch> batches_;
    uint64_t nextSequence_ = 1;
    uint64_t rows_ = 0;
    uint64_t bytes_ = 0;
    uint64_t rowsFromEarlierRuns_ = 0;
};

}  // namespace tcpscope
