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
#include "record_sink_options.hpp"
#include "records/analysis_records.hpp"
#include "tcpscope_version.hpp"
#include "text/json_text.hpp"

namespace tcpscope::cli {
namespace {

using Seconds = std::chrono::duration<double>;

struct ExportOptions {
    AnalysisInputOptions input;
    RecordSinkOptions sink;
    std::string format = "text";
};

// Whether captures are given to analyse (files, or capture points); none: only the spool is sent.
bool hasCaptures(const AnalysisInputOptions& input) { return !input.files.empty() || !input.points.empty(); }

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
            {"host", options.sink.host},
            {"capture_id", outcome.captureId},
            {"to", shownTarget(options.sink)},
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
        std::cout << jsonText(json) << '\n';
        return;
    }
    if (hasCaptures(options.input)) {
        fmt::print(
            "exported {} flows, {} findings, {} series records as host {} (capture {}): analysis {:.2f} s, "
            "records and sending {:.2f} s ({:.0f} records/s)\n",
            outcome.counts.of(RecordType::Flow), outcome.counts.of(RecordType::Finding),
            outcome.counts.of(RecordType::Series), options.sink.host, outcome.captureId, outcome.analysisSeconds,
            recordsAndSendingSeconds, perSecond);
    }
    fmt::print("{}\n", sinkReportLine(outcome.sink));
}

// The files of the capture points of an analysis with --point, else the files given.
std::vector<std::string> capturedFiles(const AnalysisInputOptions& input, const Investigation& loaded) {
    if (!loaded.points) {
        return input.files;
    }
    std::vector<std::string> files;
    for (const PointSummary& point : loaded.points->points) {
        files.insert(files.end(), point.point.files.begin(), point.point.files.end());
    }
    return files;
}

int runExport(const CLI::App& command, ExportOptions& options) {
    SinkTarget target;
    try {
        target = parseSinkTarget(options.sink.to);
    } catch (const std::invalid_argument& error) {
        fmt::print(stderr, "tcpscope-cli: --to {}\n", error.what());
        return kExitUsage;
    }
    if (hasCaptures(options.input) && !isValidHostName(options.sink.host)) {
        fmt::print(stderr,
                   "tcpscope-cli: --host '{}': give the capturing host's name (letters, digits, '.', '-', "
                   "'_')\n",
                   options.sink.host);
        return kExitUsage;
    }
    if (!hasCaptures(options.input) && std::holds_alternative<DirectoryTarget>(target)) {
        fmt::print(stderr, "tcpscope-cli: export: no capture file given\n");
        return kExitUsage;
    }

    ExportOutcome outcome;
    try {
        OpenRecordSink sink = openRecordSink(target, options.sink);
        if (hasCaptures(options.input)) {
            const auto analysisStart = std::chrono::steady_clock::now();
            Investigation loaded;
            if (const int status = loadAnalysis(command, options.input, loaded); status != kExitAnalysed) {
                return status;
            }
            const auto recordStart = std::chrono::steady_clock::now();
            outcome.analysisSeconds = Seconds(recordStart - analysisStart).count();
            outcome.captureId =
                options.sink.captureId.empty()
                    ? captureIdOf(options.sink.host, capturedFiles(options.input, loaded),
                                  loaded.analysis.engine->timeOrigin().epochNs(loaded.analysis.engine->firstTsNs()))
                    : options.sink.captureId;
            const RecordSource source{options.sink.host, outcome.captureId, fmt::format("{}+{}", kVersion, kGitCommit),
                                      loaded.analysis.engine->timeOrigin()};
            outcome.counts = writeAnalysisRecords(source, loaded.analysis, *sink.sink);
            outcome.recordSeconds = Seconds(std::chrono::steady_clock::now() - recordStart).count();
        }
        const auto finishStart = std::chrono::steady_clock::now();
        outcome.sink = sink.finish(outcome.files);
        outcome.finishSeconds = Seconds(std::chrono::steady_clock::now() - finishStart).count();
    } catch (const std::runtime_error& error) {
        fmt::print(stderr, "tcpscope-cli: export: {}\n", error.what());
        return kExitUnreadable;
    }
    printOutcome(options, outcome);
    warnUndelivered(options.sink, outcome.sink, "the next export");
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
    addCapturePointOption(*command, options->input);
    addRecordSinkOptions(*command, options->sink, true);
    command->add_option("--format", options->format, "output format")->check(CLI::IsMember({"text", "json"}));
    return {command, [command, options] { return runExport(*command, *options); }};
}

}  // namespace tcpscope::cli
