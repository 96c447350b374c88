#include "sinks/clickhouse_sink.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <random>
#include <thread>

#include "sinks/clickhouse_schema.hpp"

namespace tcpscope {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kFirstBackoff{250};
constexpr std::chrono::milliseconds kMaxBackoff{5000};
constexpr std::chrono::milliseconds kSettle{500};
constexpr int64_t kDayNs = int64_t{86400} * 1'000'000'000;

int64_t dayOf(int64_t tsNs) {
    return tsNs >= 0 ? tsNs / kDayNs : (tsNs - kDayNs + 1) / kDayNs;
}

// The first line of a server's answer, for a one-line message.
std::string firstLine(const std::string& text) {
    const std::string line = text.substr(0, text.find('\n'));
    return line.size() > 300 ? line.substr(0, 300) + "..." : line;
}

}  // namespace

ClickHouseSink::ClickHouseSink(ClickHouseTarget target, ClickHouseSinkOptions options)
    : target_(std::move(target)),
      options_(std::move(options)),
      spool_(options_.spoolDir, options_.spoolLimitBytes),
      http_(target_.access()) {
    std::random_device random;
    runId_ = fmt::format("{:08x}{:08x}", random(), random());
    report_.recordsFromEarlierRuns = spool_.rowsFromEarlierRuns();
}

ClickHouseSink::~ClickHouseSink() = default;

std::string ClickHouseSink::newBatchId() {
    return fmt::format("{}-{}", runId_, ++batchCounter_);
}

void ClickHouseSink::write(RecordType type, int64_t tsNs, std::string_view line) {
    OpenBatch& batch = open_[static_cast<size_t>(type)];
    // One table and one day per batch: it lands in one part, all or nothing.
    if (batch.rows > 0 && (batch.rows >= options_.batchRows || dayOf(tsNs) != batch.day)) {
        seal(type);
    }
    if (batch.rows == 0) {
        batch.id = newBatchId();
        batch.day = dayOf(tsNs);
    }
    // The record's line with the batch id as its last field.
    const size_t close = line.rfind('}');
    batch.body.append(line.substr(0, close));
    batch.body.append(fmt::format(",\"batch_id\":\"{}\"}}\n", batch.id));
    ++batch.rows;
}

void ClickHouseSink::seal(RecordType type) {
    spoolOpenBatch(type);
    pump(Clock::now());
}

void ClickHouseSink::spoolOpenBatch(RecordType type) {
    OpenBatch& batch = open_[static_cast<size_t>(type)];
    if (batch.rows == 0) {
        return;
    }
    if (!spool_.add(type, batch.id, batch.rows, batch.body)) {
        if (report_.recordsDropped == 0 && onNotice) {
            onNotice(fmt::format("spool {} is full ({:g} MB): records are being dropped", spool_.dir().string(),
                                 static_cast<double>(spool_.limitBytes()) / (1 << 20)));
        }
        report_.recordsDropped += batch.rows;
    }
    batch = OpenBatch{};
}

void ClickHouseSink::failed(const std::string& reason) {
    if (report_.lastError.empty() && onNotice) {
        onNotice(fmt::format("{}: {}; spooling in {}", target_.text(), reason, spool_.dir().string()));
    }
    report_.lastError = reason;
    ++report_.batchesRetried;
    backoff_ = std::min(kMaxBackoff, backoff_.count() == 0 ? kFirstBackoff : backoff_ * 2);
    nextAttempt_ = Clock::now() + backoff_;
}

bool ClickHouseSink::ensureTables() {
    if (tablesReady_) {
        return true;
    }
    for (const std::string& statement : clickHouseSchema(target_.database)) {
        const HttpResult result = http_.post(target_.httpBase(), statement, options_.timeoutSeconds);
        if (!result.ok()) {
            failed(result.outcome == HttpResult::Outcome::Answered
                       ? fmt::format("creating the tables: HTTP {}: {}", result.status, firstLine(result.body))
                       : result.error);
            return false;
        }
    }
    if (!addMissingFindingColumns()) {
        return false;
    }
    tablesReady_ = true;
    return true;
}

bool ClickHouseSink::addMissingFindingColumns() {
    const HttpResult columns = http_.post(
        target_.httpBase(),
        fmt::format("SELECT name FROM system.columns WHERE database = '{}' AND table = 'findings'", target_.database),
        options_.timeoutSeconds);
    if (!columns.ok()) {
        failed(columns.outcome == HttpResult::Outcome::Answered
                   ? fmt::format("reading the columns of findings: HTTP {}: {}", columns.status, firstLine(columns.body))
                   : columns.error);
        return false;
    }
    std::vector<std::string_view> present;
    for (size_t start = 0; start < columns.body.size();) {
        const size_t end = std::min(columns.body.find('\n', start), columns.body.size());
        present.push_back(std::string_view(columns.body).substr(start, end - start));
        start = end + 1;
    }
    for (const ClickHouseColumn& column : clickHouseAddedFindingColumns()) {
        if (std::find(present.begin(), present.end(), column.name) != present.end()) {
            continue;
        }
        const HttpResult added = http_.post(
            target_.httpBase(),
            fmt::format("ALTER TABLE {}.findings ADD COLUMN {} {}", target_.database, column.name, column.type),
            options_.timeoutSeconds);
        // Another sink may have added it meanwhile: that is as good.
        if (!added.ok() && added.body.find("already exists") == std::string::npos) {
            failed(added.outcome == HttpResult::Outcome::Answered
                       ? fmt::format("adding column {} to findings: HTTP {}: {}", column.name, added.status,
                                     firstLine(added.body))
                       : added.error);
            return false;
        }
    }
    return true;
}

ClickHouseSink::Delivery ClickHouseSink::deliverOldest() {
    if (!ensureTables()) {
        return Delivery::Failed;
    }
    const SpooledBatch& batch = spool_.oldest();
    const std::string table = fmt::format("{}.{}", target_.database, clickHouseTable(batch.type));
    if (batch.tried) {
        // It may have landed, or may still land: ClickHouse 18.16 deduplicates no insert here, so ask.
        switch (landedBefore(batch, table)) {
            case Landed::Yes: return Delivery::FoundLanded;  // a batch lands whole (one part), so it is all there
            case Landed::Unknown: return Delivery::Failed;
            case Landed::No: break;
        }
    }
    const std::string url =
        fmt::format("{}?query={}&query_id={}&input_format_skip_unknown_fields=1", target_.httpBase(),
                    http_.escape(fmt::format("INSERT INTO {} FORMAT JSONEachRow", table)), batch.id);
    const HttpResult insert = http_.post(url, spool_.read(batch), options_.timeoutSeconds);
    if (insert.ok()) {
        return Delivery::Landed;
    }
    // Also an answer may leave it unknown: the server refuses a second query with the same id while
    // the first still runs (the first may then land).
    if (insert.outcome != HttpResult::Outcome::NotDelivered) {
        spool_.markOldestTried();
    }
    failed(insert.outcome == HttpResult::Outcome::Answered
               ? fmt::format("HTTP {}: {}", insert.status, firstLine(insert.body))
               : insert.error);
    return Delivery::Failed;
}

std::optional<uint64_t> ClickHouseSink::queryNumber(const std::string& query) {
    const HttpResult result = http_.post(target_.httpBase(), query, options_.timeoutSeconds);
    if (!result.ok()) {
        failed(result.outcome == HttpResult::Outcome::Answered
                   ? fmt::format("HTTP {}: {}", result.status, firstLine(result.body))
                   : result.error);
        return std::nullopt;
    }
    uint64_t number = 0;
    const auto [end, error] = std::from_chars(result.body.data(), result.body.data() + result.body.size(), number);
    if (error != std::errc()) {
        failed(fmt::format("unexpected answer to '{}': {}", query, firstLine(result.body)));
        return std::nullopt;
    }
    return number;
}

ClickHouseSink::Landed ClickHouseSink::landedBefore(const SpooledBatch& batch, const std::string& table) {
    const std::string countRows = fmt::format("SELECT count() FROM {} WHERE batch_id = '{}'", table, batch.id);
    const std::string countRunning =
        fmt::format("SELECT count() FROM system.processes WHERE query_id = '{}'", batch.id);
    // The earlier request may still be in the server's hands (running, or read from a connection
    // it accepted before ours): look twice, a moment apart, before calling it lost.
    for (int look = 0; look < 2; ++look) {
        if (look > 0) {
            std::this_thread::sleep_for(kSettle);
        }
        const std::optional<uint64_t> rows = queryNumber(countRows);
        if (!rows) {
            return Landed::Unknown;
        }
        if (*rows > 0) {
            return Landed::Yes;
        }
        const std::optional<uint64_t> running = queryNumber(countRunning);
        if (!running) {
            return Landed::Unknown;
        }
        if (*running > 0) {
            failed(fmt::format("batch {} is still being inserted", batch.id));
            return Landed::Unknown;
        }
    }
    return Landed::No;
}

void ClickHouseSink::pump(Clock::time_point waitUntil) {
    while (!spool_.empty()) {
        if (Clock::now() < nextAttempt_) {
            if (nextAttempt_ > waitUntil) {
                return;
            }
            std::this_thread::sleep_until(nextAttempt_);
        }
        const uint64_t rows = spool_.oldest().rows;
        const Delivery delivery = deliverOldest();
        if (delivery == Delivery::Failed) {
            continue;  // waits for the back-off, or returns
        }
        if (delivery == Delivery::FoundLanded) {
            ++report_.batchesFoundLanded;
        } else {
            ++report_.batchesSent;
        }
        report_.recordsSent += rows;
        spool_.removeOldest();
        backoff_ = std::chrono::milliseconds(0);
        if (!report_.lastError.empty() && onNotice) {
            onNotice(fmt::format("{}: answering again", target_.text()));
            report_.lastError.clear();
        }
    }
}

void ClickHouseSink::flush() {
    for (const RecordType type : {RecordType::Flow, RecordType::Finding, RecordType::Series}) {
        spoolOpenBatch(type);
    }
    pump(Clock::now());
}

SinkReport ClickHouseSink::finish() {
    for (const RecordType type : {RecordType::Flow, RecordType::Finding, RecordType::Series}) {
        spoolOpenBatch(type);
    }
    const auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(options_.retrySeconds * 1000));
    nextAttempt_ = {};  // one attempt now, however short the retry time
    pump(deadline);
    while (!spool_.empty() && Clock::now() < deadline && nextAttempt_ <= deadline) {
        pump(deadline);
    }
    return report();
}

SinkReport ClickHouseSink::report() const {
    SinkReport report = report_;
    report.recordsSpooled = spool_.rows();
    return report;
}

}  // namespace tcpscope
