#include "record_sink_options.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace tcpscope::cli {

CLI::Option* addRecordSinkOptions(CLI::App& command, RecordSinkOptions& options, bool toRequired) {
    command.add_option("--host", options.host, "the name of the host the capture was taken on");
    CLI::Option* to = command.add_option("--to", options.to, "dir:PATH or clickhouse://[USER[:PASSWORD]@]HOST:PORT/DB[?secure=true[&ca=PATH]] (password also from $CLICKHOUSE_PASSWORD)");
    to->required(toRequired);
    command.add_option("--capture-id", options.captureId, "the records' capture_id (default: from the capture)");
    const char* group = "ClickHouse";
    command
        .add_option("--spool", options.spoolDir, "folder where batches wait (default: ~/.local/state/tcpscope/spool/...)")
        ->group(group);
    command.add_option("--spool-limit-mb", options.spoolLimitMb, "largest spool; beyond it batches are dropped")
        ->group(group)
        ->check(CLI::Range(0.001, 1048576.0));
    command.add_option("--batch-rows", options.batchRows, "rows per INSERT")->group(group)->check(CLI::Range(1, 100000));
    command.add_option("--timeout-s", options.timeoutSeconds, "give up on one request after this long")
        ->group(group)
        ->check(CLI::Range(0.1, 3600.0));
    command
        .add_option("--retry-s", options.retrySeconds, "at the end, keep trying this long before leaving batches spooled")
        ->group(group)
        ->check(CLI::Range(0.0, 86400.0));
    return to;
}

std::string shownTarget(const RecordSinkOptions& options) {
    try {
        return sinkTargetText(parseSinkTarget(options.to));
    } catch (const std::invalid_argument&) {
        return "(an invalid --to)";
    }
}

OpenRecordSink openRecordSink(const SinkTarget& target, const RecordSinkOptions& options) {
    OpenRecordSink open;
    if (const auto* dir = std::get_if<DirectoryTarget>(&target)) {
        auto owned = std::make_unique<DirectorySink>(dir->root, options.host);
        open.directory = owned.get();
        open.sink = std::move(owned);
        return open;
    }
    const auto& clickHouseTarget = std::get<ClickHouseTarget>(target);
    ClickHouseSinkOptions sinkOptions;
    sinkOptions.spoolDir =
        options.spoolDir.empty() ? defaultSpoolDir(clickHouseTarget) : std::filesystem::path(options.spoolDir);
    sinkOptions.spoolLimitBytes = static_cast<uint64_t>(options.spoolLimitMb * (1 << 20));
    sinkOptions.batchRows = options.batchRows;
    sinkOptions.timeoutSeconds = options.timeoutSeconds;
    sinkOptions.retrySeconds = options.retrySeconds;
    auto owned = std::make_unique<ClickHouseSink>(clickHouseTarget, sinkOptions);
    owned->onNotice = [](const std::string& line) { fmt::print(stderr, "tcpscope-cli: {}\n", line); };
    open.clickHouse = owned.get();
    open.sink = std::move(owned);
    return open;
}

SinkReport OpenRecordSink::finish(std::vector<std::string>& files) {
    if (directory != nullptr) {
        directory->finish();
        SinkReport report;
        report.recordsSent = directory->recordsWritten();
        for (const auto& file : directory->files()) {
            files.push_back(file.string());
        }
        return report;
    }
    return clickHouse->finish();
}

std::string sinkReportLine(const SinkReport& report) {
    std::string line =
        fmt::format("records: {} sent, {} spooled, {} dropped", report.recordsSent, report.recordsSpooled,
                    report.recordsDropped);
    if (report.recordsFromEarlierRuns > 0) {
        line += fmt::format(" ({} waited in the spool from earlier runs)", report.recordsFromEarlierRuns);
    }
    if (report.batchesFoundLanded > 0) {
        line += fmt::format(" ({} batches sent earlier without an answer were found landed and not sent again)",
                            report.batchesFoundLanded);
    }
    return line;
}

void warnUndelivered(const RecordSinkOptions& options, const SinkReport& report, const std::string& whatSendsNext) {
    if (report.recordsDropped > 0) {
        fmt::print(stderr, "tcpscope-cli: {} records were DROPPED: the spool reached its limit of {:g} MB\n",
                   report.recordsDropped, options.spoolLimitMb);
    }
    if (report.recordsSpooled > 0) {
        fmt::print(stderr, "tcpscope-cli: {} records wait in the spool; {} to {} sends them first\n",
                   report.recordsSpooled, whatSendsNext, shownTarget(options));
    }
}

}  // namespace tcpscope::cli
