#pragma once
// The record sink of export and capture --to: its options, opening it, and what became of the records.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "sinks/clickhouse_sink.hpp"
#include "sinks/directory_sink.hpp"
#include "sinks/sink_spec.hpp"

namespace tcpscope::cli {

struct RecordSinkOptions {
    std::string host;
    std::string to;
    std::string captureId;
    std::string spoolDir;
    double spoolLimitMb = 256;
    uint64_t batchRows = 20000;
    double timeoutSeconds = 30;
    double retrySeconds = 60;
};

/// Adds --host, --to (required unless `toRequired` is false), --capture-id and the ClickHouse group.
CLI::Option* addRecordSinkOptions(CLI::App& command, RecordSinkOptions& options, bool toRequired);

/// An open sink: a directory or ClickHouse (the one not null).
struct OpenRecordSink {
    std::unique_ptr<RecordSink> sink;
    DirectorySink* directory = nullptr;
    ClickHouseSink* clickHouse = nullptr;

    /// Ends the sink: writes the files out, or sends the batches (retrying as the options say).
    /// `files` gets the directory sink's files.
    SinkReport finish(std::vector<std::string>& files);
};

/// Opens the sink of `target`. Throws std::runtime_error (a folder or spool that cannot be used).
OpenRecordSink openRecordSink(const SinkTarget& target, const RecordSinkOptions& options);

/// --to as it may be shown: without a ClickHouse password (sinkTargetText).
std::string shownTarget(const RecordSinkOptions& options);

/// `records: N sent, M spooled, K dropped` and the batches found landed, on one line.
std::string sinkReportLine(const SinkReport& report);
/// Says on stderr what was dropped and what waits in the spool.
void warnUndelivered(const RecordSinkOptions& options, const SinkReport& report, const std::string& whatSendsNext);

}  // namespace tcpscope::cli
