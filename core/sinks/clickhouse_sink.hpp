#pragma once
#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "sinks/batch_spool.hpp"
#include "sinks/http_client.hpp"
#include "sinks/sink_spec.hpp"
#include "records/record_sink.hpp"

namespace tcpscope {

/// How a ClickHouse sink sends and waits.
struct ClickHouseSinkOptions {
    std::filesystem::path spoolDir;           ///< where batches wait (see defaultSpoolDir)
    uint64_t spoolLimitBytes = 256ull << 20;  ///< beyond it new batches are dropped, and said
    uint64_t batchRows = 20000;               ///< rows per INSERT (one table, one UTC day)
    double timeoutSeconds = 30;               ///< per request
    double retrySeconds = 60;                 ///< finish() keeps trying this long
};

/// What became of the records given to a sink.
struct SinkReport {
    uint64_t recordsSent = 0;     ///< landed in the store (each counted once)
    uint64_t recordsSpooled = 0;  ///< still waiting in the spool at the end
    uint64_t recordsDropped = 0;  ///< not kept: the spool was full
    uint64_t batchesSent = 0;
    uint64_t batchesFoundLanded = 0;      ///< sent before without an answer, found in the store: not sent again
    uint64_t batchesRetried = 0;          ///< attempts that failed and were tried again later
    uint64_t recordsFromEarlierRuns = 0;  ///< of the spool when it was opened
    std::string lastError;                ///< why the last attempt failed, if one did
};

/// Inserts records into ClickHouse over HTTP (`INSERT INTO DB.TABLE FORMAT JSONEachRow`, batches of
/// one table and one UTC day), creating the database and tables if missing. Every batch goes
/// through the on-disk spool and leaves it only once the server took it; a batch sent before
/// without an answer is looked up by its id before it is sent again (docs/records.md).
class ClickHouseSink : public RecordSink {
public:
    ClickHouseSink(ClickHouseTarget target, ClickHouseSinkOptions options);
    ~ClickHouseSink() override;
    ClickHouseSink(const ClickHouseSink&) = delete;
    ClickHouseSink& operator=(const ClickHouseSink&) = delete;

    void write(RecordType type, int64_t tsNs, std::string_view line) override;
    /// Seals the open batches into the spool and sends what it holds, unless a failure's back-off
    /// still runs (then they wait for the next write or flush): never waits for the server longer
    /// than one request's timeout.
    void flush() override;
    /// Seals the open batches and sends what the spool holds, trying for options.retrySeconds at
    /// most; what is left stays in the spool for the next run.
    SinkReport finish();
    /// The report so far.
    [[nodiscard]] SinkReport report() const;

    /// Called with a line for a person when something worth saying happens (the server stopped
    /// answering, the spool is full); by default nothing.
    std::function<void(const std::string&)> onNotice;

private:
    struct OpenBatch {
        std::string id;
        std::string body;
        uint64_t rows = 0;
        int64_t day = 0;
    };
    enum class Delivery { Landed, FoundLanded, Failed };
    enum class Landed { Yes, No, Unknown };

    // Spools the open batch of `type` (or drops it, said, when the spool is full), then sends.
    void seal(RecordType type);
    void spoolOpenBatch(RecordType type);
    // Sends spooled batches in order until one fails; while a failure's back-off runs, returns at
    // once unless `waitUntil` lies beyond it.
    void pump(std::chrono::steady_clock::time_point waitUntil);
    Delivery deliverOldest();
    bool ensureTables();
    // Adds to a findings table made by an older tcpscope the columns the fleet queries read.
    bool addMissingFindingColumns();
    // Whether a batch sent before without an answer is in the store (Unknown: ask again later).
    Landed landedBefore(const SpooledBatch& batch, const std::string& table);
    // A query answering one number, or nullopt (the failure noted).
    std::optional<uint64_t> queryNumber(const std::string& query);
    void failed(const std::string& reason);
    [[nodiscard]] std::string newBatchId();

    ClickHouseTarget target_;
    ClickHouseSinkOptions options_;
    BatchSpool spool_;
    HttpClient http_;
    std::array<OpenBatch, kRecordTypeCount> open_;
    bool tablesReady_ = false;
    std::chrono::steady_clock::time_point nextAttempt_{};
    std::chrono::milliseconds backoff_{0};
    SinkReport report_;
    uint64_t batchCounter_ = 0;
    std::string runId_;
};

}  // namespace tcpscope
