// export: a capture's flows, findings and series as tcpscope-record/1 records, into a directory of
// zstd NDJSON files or into ClickHouse (docs/records.md). Argument parsing and output only.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <variant>

#include "commands.hpp"
#include "export/clickhouse_sink.hpp"
#include "export/directory_sink.hpp"
#include "export/sink_spec.hpp"
#include "records/analysis_records.hpp"
#include "tcpscope_version.hpp"

namespace tcpscope::cli {
namespace {

using Seconds = std::chrono::duration<double>;

struct ExportOptions {
    AnalysisInputOptions input;
    std::string host;
    std::string to;
    std::string captureId;
    std::string spoolDir;
    double spoolLimitMb = 256;
    uint64_t batchRows = 20000;
    double timeoutSeconds = 30;
    double retrySeconds = 60;
    std::string format = "text";
};

// What one export did, for the closing lines.
struct ExportOutcome {
    RecordCounts counts;
    SinkReport sink;
    std::string captureId;
    std::vector<std::string> files;
    double analysisSeconds = 0;
    double recordSeconds = 0;
    double finishSeconds = 0;  ///< the last batches and the retries, after the records were made
};

void printOutcome(const ExportOptions& options, const ExportOutcome& outcome) {
    const uint64_t total = outcome.counts.total();
    // Records are made and sent as they go; the last batches leave in finish().
    const double recordsAndSendingSeconds = outcome.recordSeconds + outcome.finishSeconds;
    const double perSecond = recordsAndSendingSeconds > 0 ? static_cast<double>(total) / recordsAndSendingSeconds : 0;
    if (options.format == "json") {
        nlohmann::ordered_json json = {
            {"host", options.host},
            {"capture_id", outcome.captureId},
            {"to", options.to},
            {"records",
             {{"flow", outcome.counts.of(RecordType::Flow)},
              {"finding", outcome.counts.of(RecordType::Finding)},
              {"series", outcome.counts.of(RecordType::Series)}}},
            {"sent", outcome.sink.recordsSent},
            {"spooled", outcome.sink.recordsSpooled},
            {"dropped", outcome.sink.recordsDropped},
            {"from_earlier_runs", outcome.sink.recordsFromEarlierRuns},
            {"batches_sent", outcome.sink.batchesSent},
            {"batches_found_landed", outcome.sink.batchesFoundLanded},
            {"failed_attempts", outcome.sink.batchesRetried},
            {"files", outcome.files},
            {"analysis_s", outcome.analysisSeconds},
            {"records_s", outcome.recordSeconds},
            {"finish_s", outcome.finishSeconds},
        };
        std::cout << json.dump() << '\n';
        return;
    }
    if (!options.input.files.empty()) {
        fmt::print(
            "exported {} flows, {} findings, {} series records as host {} (capture {}): analysis {:.2f} s, "
            "records and sending {:.2f} s ({:.0f} records/s)\n",
            outcome.counts.of(RecordType::Flow), outcome.counts.of(RecordType::Finding),
            outcome.counts.of(RecordType::Series), options.host, outcome.captureId, outcome.analysisSeconds,
            recordsAndSendingSeconds, perSecond);
    }
    fmt::print("records: {} sent, {} spooled, {} dropped", outcome.sink.recordsSent, outcome.sink.recordsSpooled,
               outcome.sink.recordsDropped);
    if (outcome.sink.recordsFromEarlierRuns > 0) {
        fmt::print(" ({} waited in the spool from earlier runs)", outcome.sink.recordsFromEarlierRuns);
    }
    if (outcome.sink.batchesFoundLanded > 0) {
        fmt::print(" ({} batches sent earlier without an answer were found landed and not sent again)",
                   outcome.sink.batchesFoundLanded);
    }
    fmt::print("\n");
}

int runExport(const CLI::App& command, ExportOptions& options) {
    SinkTarget target;
    try {
        target = parseSinkTarget(options.to);
    } catch (const std::invalid_argument& error) {
        fmt::print(stderr, "tcpscope-cli: --to {}\n", error.what());
        return kExitUsage;
    }
    if (!options.input.files.empty() && !isValidHostName(options.host)) {
        fmt::print(stderr,
                   "tcpscope-cli: --host '{}': give the capturing host's name (letters, digits, '.', '-', "
                   "'_')\n",
                   options.host);
        return kExitUsage;
    }
    if (options.input.files.empty() && std::holds_alternative<DirectoryTarget>(target)) {
        fmt::print(stderr, "tcpscope-cli: export: no capture file given\n");
        return kExitUsage;
    }

    ExportOutcome outcome;
    std::unique_ptr<RecordSink> sink;
    DirectorySink* directory = nullptr;
    ClickHouseSink* clickHouse = nullptr;
    try {
        if (const auto* dir = std::get_if<DirectoryTarget>(&target)) {
            auto owned = std::make_unique<DirectorySink>(dir->root, options.host);
            directory = owned.get();
            sink = std::move(owned);
        } else {
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
            clickHouse = owned.get();
            sink = std::move(owned);
        }

        if (!options.input.files.empty()) {
            const auto analysisStart = std::chrono::steady_clock::now();
            LoadedAnalysis loaded;
            if (const int status = loadAnalysis(command, options.input, loaded); status != kExitAnalysed) {
                return status;
            }
            const auto recordStart = std::chrono::steady_clock::now();
            outcome.analysisSeconds = Seconds(recordStart - analysisStart).count();
            outcome.captureId = options.captureId.empty() ? captureIdOf(options.host, options.input.files,
                                                                        loaded.analysis.engine->firstTsNs())
                                                          : options.captureId;
            const RecordSource source{options.host, outcome.captureId, fmt::format("{}+{}", kVersion, kGitCommit)};
            outcome.counts = writeAnalysisRecords(source, loaded.analysis, *sink);
            outcome.recordSeconds = Seconds(std::chrono::steady_clock::now() - recordStart).count();
        }
        const auto finishStart = std::chrono::steady_clock::now();
        if (directory != nullptr) {
            directory->finish();
            outcome.sink.recordsSent = directory->recordsWritten();
            for (const auto& file : directory->files()) {
                outcome.files.push_back(file.string());
            }
        } else {
            outcome.sink = clickHouse->finish();
        }
        outcome.finishSeconds = Seconds(std::chrono::steady_clock::now() - finishStart).count();
    } catch (const std::runtime_error& error) {
        fmt::print(stderr, "tcpscope-cli: export: {}\n", error.what());
        return kExitUnreadable;
    }
    printOutcome(options, outcome);
    if (outcome.sink.recordsDropped > 0) {
        fmt::print(stderr, "tcpscope-cli: {} records were DROPPED: the spool reached its limit of {:g} MB\n",
                   outcome.sink.recordsDropped, options.spoolLimitMb);
    }
    if (outcome.sink.recordsSpooled > 0) {
        fmt::print(stderr, "tcpscope-cli: {} records wait in the spool; the next export to {} sends them first\n",
                   outcome.sink.recordsSpooled, options.to);
    }
    std::fflush(nullptr);
    return outcome.sink.recordsDropped > 0 || outcome.sink.recordsSpooled > 0 ? kExitNotDelivered : kExitAnalysed;
}

}  // namespace

Subcommand addExportCommand(CLI::App& app) {
    auto options = std::make_shared<ExportOptions>();
    options->input.readsPackets = false;
    options->input.describesWhenWritten = true;  // each finding is written once, in order
    CLI::App* command = app.add_subcommand(
        "export", "flows, findings and series as tcpscope-record/1 records, into files or ClickHouse");
    addAnalysisInputOptions(*command, options->input, true);
    command->get_option("files")->required(false)->description(
        "capture files of one host, merged (pcap, pcapng, gzip or zstd); none: only send what the spool holds");
    command->add_option("--host", options->host, "the name of the host the capture was taken on");
    command->add_option("--to", options->to, "dir:PATH or clickhouse://HOST:PORT/DB")->required();
    command->add_option("--capture-id", options->captureId, "the records' capture_id (default: from the files)");
    const char* group = "ClickHouse";
    command
        ->add_option("--spool", options->spoolDir,
                     "folder where batches wait (default: ~/.local/state/tcpscope/spool/...)")
        ->group(group);
    command->add_option("--spool-limit-mb", options->spoolLimitMb, "largest spool; beyond it batches are dropped")
        ->group(group)
        ->check(CLI::Range(0.001, 1048576.0));
    command->add_option("--batch-rows", options->batchRows, "rows per INSERT")
        ->group(group)
        ->check(CLI::Range(1, 100000));
    command->add_option("--timeout-s", options->timeoutSeconds, "give up on one request after this long")
        ->group(group)
        ->check(CLI::Range(0.1, 3600.0));
    command
        ->add_option("--retry-s", options->retrySeconds,
                     "at the end, keep trying this long before leaving batches spooled")
        ->group(group)
        ->check(CLI::Range(0.0, 86400.0));
    command->add_option("--format", options->format, "output format")->check(CLI::IsMember({"text", "json"}));
    return {command, [command, options] { return runExport(*command, *options); }};
}

}  // namespace tcpscope::cli
