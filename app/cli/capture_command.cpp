// capture, interfaces: live capture on an interface, with findings printed as they appear and the
// full report at the end; the list of capture devices.
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "capture/bpf_filter.hpp"
#include "capture/pcapng_writer.hpp"
#include "commands.hpp"
#include "investigation/investigation.hpp"
#include "live/capture_source.hpp"
#include "live/live_error.hpp"
#include "live/live_records.hpp"
#include "live/live_report.hpp"
#include "live/live_session.hpp"
#include "live/pcap_capture.hpp"
#include "record_sink_options.hpp"
#include "recorded/call_block.hpp"
#include "recorder/live_calls.hpp"
#include "recorder/live_stall_verdicts.hpp"
#include "recorder/live_verdict_report.hpp"
#include "recorder/recorded_capture_source.hpp"
#include "records/queued_record_sink.hpp"
#include "report/json_report.hpp"
#include "report/syscalls_text.hpp"
#include "report/text_report.hpp"
#include "stop_signals.hpp"
#include "tcpscope_version.hpp"
#include "text/json_text.hpp"

namespace tcpscope::cli {
namespace {

struct CaptureCommandOptions {
    CaptureSourceOptions source;  // device, filter, snaplen, buffer; the helper
    std::optional<double> durationSeconds;
    std::optional<uint64_t> count;
    std::string writePath;
    std::string ring;  // SIZE,FILES
    std::optional<double> ringSeconds;
    std::string format = "text";
    ThresholdOptions thresholds;
    std::string indexDirectory;
    RecordSinkOptions records;  // --to: records while the capture runs
    double flushSeconds = 1;
    bool syscalls = false;  // --syscalls: record the socket calls of --pid/--comm beside the packets
    SyscallRecorderFilter processes;
};

// "100M", "2G", "500k", "1048576" (bytes; k, M, G are powers of 1000 as tcpdump -C counts).
std::optional<uint64_t> parseSize(const std::string& text) {
    size_t used = 0;
    uint64_t value = 0;
    try {
        value = std::stoull(text, &used);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    std::string unit = text.substr(used);
    if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) {
        unit.pop_back();
    }
    const uint64_t scale = unit.empty() ? 1 : unit == "k" || unit == "K" ? 1000 : unit == "M" ? 1'000'000
                                          : unit == "G"                  ? 1'000'000'000
                                                                         : 0;
    if (scale == 0 || value == 0) {
        return std::nullopt;
    }
    return value * scale;
}

std::optional<CaptureFileOptions> fileOptions(const CaptureCommandOptions& options, std::string& problem) {
    if (options.writePath.empty()) {
        if (!options.ring.empty() || options.ringSeconds) {
            problem = "--ring and --ring-seconds need --write FILE.pcapng";
        }
        return std::nullopt;
    }
    CaptureFileOptions file;
    file.path = options.writePath;
    if (!options.ring.empty()) {
        const size_t comma = options.ring.find(',');
        const std::optional<uint64_t> size = parseSize(options.ring.substr(0, comma));
        unsigned files = 0;
        if (!size || comma == std::string::npos || std::sscanf(options.ring.c_str() + comma + 1, "%u", &files) != 1 ||
            files == 0) {
            problem = "--ring must be SIZE,FILES, e.g. 100M,10 (ten files of 100 MB, the oldest deleted)";
            return std::nullopt;
        }
        file.maxFileBytes = *size;
        file.maxFiles = files;
    }
    if (options.ringSeconds) {
        if (*options.ringSeconds <= 0) {
            problem = "--ring-seconds must be positive";
            return std::nullopt;
        }
        file.maxFileNs = static_cast<int64_t>(*options.ringSeconds * 1e9);
    }
    return file;
}

// The finding stream: each finding once when it has its summary; then an update at most once a
// second while it grows (a stall going on longer, more waits, more time lost), at once when it is
// no longer ongoing, and at the end for growth not printed yet; a provisional one that was
// withdrawn. Findings are heard on every change (onFinding); growth is printed from the log at the
// capture clock's ticks, where the finding can be described as it is (its summary then counts what
// the update says). Called on the analysis thread only.
class FindingStream : public LiveObserver {
public:
    FindingStream(bool json, int64_t startNs) : json_(json), startNs_(startNs) {}

    void onFinding(const Finding& finding) {
        if (finding.id >= printed_.size()) {
            printed_.resize(finding.id + 1);
        }
        Printed& printed = printed_[finding.id];
        if (finding.withdrawn) {
            if (printed.shown) {
                print(finding, "finding_withdrawn", "withdrawn (the packets ended it sooner)");
            }
            printed = {};
            return;
        }
        if (finding.summary.empty()) {
            return;
        }
        if (!printed.shown) {
            print(finding, "finding", finding.ongoing ? "(ongoing) " + finding.summary : finding.summary);
            remember(finding, printed);
        } else if (printed.ongoing && !finding.ongoing) {
            printUpdate(finding, printed);
        } else if (!printed.due && grew(finding, printed)) {
            printed.due = true;
            due_.push_back(finding.id);
        }
    }

    // A stall finding's verdict from the calls recorded so far (LiveStallVerdicts), after its finding line.
    void onVerdict(const LiveStallVerdict& verdict) const {
        if (json_) {
            std::cout << jsonText(liveVerdictEventJson(verdict)) << '\n';
        } else {
            std::cout << fmt::format("[{:+.3f} s] verdict {} #{}: {}\n", seconds(verdict.judgedNs),
                                     findingKindName(FindingKind::DelayedAckStall), verdict.connection,
                                     liveVerdictText(verdict));
        }
        std::cout.flush();
    }
    // A live verdict the end-of-capture pass gives otherwise, once the capture ended at `endNs`.
    void onRevised(const RevisedVerdict& revised, int64_t endNs) const {
        if (json_) {
            std::cout << jsonText(revisedVerdictEventJson(revised)) << '\n';
        } else {
            std::cout << fmt::format("[{:+.3f} s] verdict {} #{} revised: {}\n", seconds(endNs),
                                     findingKindName(FindingKind::DelayedAckStall), revised.live.connection,
                                     revisedVerdictText(revised));
        }
        std::cout.flush();
    }

    void onSegment(const SegmentEvent& /*event*/) override {}
    void onTick(const LiveResults& results) override { printDue(results.log, false); }
    void onFinished(const LiveResults& results) override { printDue(results.log, true); }

private:
    static constexpr std::chrono::seconds kUpdateInterval{1};
    struct Printed {
        bool shown = false;
        bool ongoing = false;
        bool due = false;  // grew since printed, listed in due_
        uint64_t waits = 0;
        double durationMs = 0;
        std::chrono::steady_clock::time_point at;
    };

    static bool grew(const Finding& finding, const Printed& printed) {
        return finding.impact.delayedRequests > printed.waits || finding.durationMs >= printed.durationMs + 1.0 ||
               finding.ongoing != printed.ongoing;
    }
    static void remember(const Finding& finding, Printed& printed) {
        printed = {true, finding.ongoing, false, finding.impact.delayedRequests, finding.durationMs,
                   std::chrono::steady_clock::now()};
    }

    // Prints the findings that grew since printed, those printed a second ago or more (all at the end).
    void printDue(const FindingLog& log, bool atEnd) {
        const auto now = std::chrono::steady_clock::now();
        size_t kept = 0;
        for (const uint32_t id : due_) {
            Printed& printed = printed_[id];
            if (!printed.due) {
                continue;
            }
            if (!atEnd && now - printed.at < kUpdateInterval) {
                due_[kept++] = id;
                continue;
            }
            const Finding& finding = log.butEvidence(id);
            printed.due = false;
            if (printed.shown && !finding.withdrawn && grew(finding, printed)) {
                printUpdate(finding, printed);
            }
        }
        due_.resize(kept);
    }

    void printUpdate(const Finding& finding, Printed& printed) {
        const std::string waits = finding.impact.delayedRequests > 0
                                      ? fmt::format("{} {}, ", finding.impact.delayedRequests,
                                                    finding.impact.delayedRequests == 1 ? "wait" : "waits")
                                      : std::string();
        print(finding, "finding_update",
              fmt::format("{} {}{:.1f} ms", finding.ongoing ? "still going on:" : (printed.ongoing ? "ended:" : "grew:"),
                          waits, finding.durationMs));
        remember(finding, printed);
    }

    void print(const Finding& finding, std::string_view event, const std::string& text) const {
        if (json_) {
            std::cout << jsonText(liveFindingEventJson(finding, event)) << '\n';
        } else {
            const std::string flow =
                finding.connection != kNoConnection ? fmt::format("#{}", finding.connection) : "-";
            std::cout << fmt::format("[{:+.3f} s] {} {} {}: {}\n", seconds(finding.tsNs),
                                     severityName(finding.severity), findingKindName(finding.kind), flow, text);
        }
        std::cout.flush();
    }

    [[nodiscard]] double seconds(int64_t tsNs) const { return static_cast<double>(tsNs - startNs_) / 1e9; }

    bool json_;
    int64_t startNs_;
    std::vector<Printed> printed_;
    std::vector<uint32_t> due_;  // ids that grew since printed
};

// Where the records of a capture go while it runs (--to): the sink, the queue that keeps the
// analysis thread from ever waiting for it, and the records made from the analysis.
struct LiveRecordsRun {
    OpenRecordSink sink;
    std::unique_ptr<QueuedRecordSink> queue;
    std::unique_ptr<LiveRecords> records;
    std::string captureId;
    SinkReport report;
    std::vector<std::string> files;
    uint64_t queueDropped = 0;
    std::string queueError;

    LiveRecordsRun(const SinkTarget& target, const CaptureCommandOptions& options, const std::string& device,
                   int64_t startNs)
        : sink(openRecordSink(target, options.records)) {
        captureId = options.records.captureId.empty()
                        ? captureIdOf(options.records.host, {"live:" + device}, startNs)
                        : options.records.captureId;
        queue = std::make_unique<QueuedRecordSink>(
            *sink.sink, std::chrono::milliseconds(static_cast<int64_t>(options.flushSeconds * 1000)));
        records = std::make_unique<LiveRecords>(
            RecordSource{options.records.host, captureId, fmt::format("{}+{}", kVersion, kGitCommit), TimeOrigin{}},
            *queue);
    }

    // After the session finished: the last series, then everything out of the queue and the sink.
    void finish(const CaptureAnalysis& analysis) {
        records->finishSeries(analysis);
        queue->close();
        queueDropped = queue->recordsDropped();
        queueError = queue->error();
        report = sink.finish(files);
        report.recordsDropped += queueDropped;
    }

    [[nodiscard]] nlohmann::ordered_json json(const CaptureCommandOptions& options) const {
        const RecordCounts& counts = records->counts();
        return {{"host", options.records.host},
                {"capture_id", captureId},
                {"to", shownTarget(options.records)},
                {"records",
                 {{"flow", counts.of(RecordType::Flow)},
                  {"finding", counts.of(RecordType::Finding)},
                  {"series", counts.of(RecordType::Series)}}},
                {"sent", report.recordsSent},
                {"spooled", report.recordsSpooled},
                {"dropped", report.recordsDropped},
                {"from_earlier_runs", report.recordsFromEarlierRuns},
                {"batches_sent", report.batchesSent},
                {"batches_found_landed", report.batchesFoundLanded},
                {"failed_attempts", report.batchesRetried},
                {"record_queue_high_water", queue->highWater()},
                {"error", queueError.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(queueError)},
                {"files", files}};
    }

    void printText(std::ostream& out, const CaptureCommandOptions& options) const {
        const RecordCounts& counts = records->counts();
        fmt::print(out, "Records to {} as host {} (capture {}): {} flows, {} finding records, {} series\n",
                   shownTarget(options.records), options.records.host, captureId, counts.of(RecordType::Flow),
                   counts.of(RecordType::Finding), counts.of(RecordType::Series));
        fmt::print(out, "  {}\n\n", sinkReportLine(report));
    }

    // Says on stderr what was not delivered, and returns the exit code it calls for.
    [[nodiscard]] int warn(const CaptureCommandOptions& options) const {
        if (!queueError.empty()) {
            fmt::print(stderr, "tcpscope-cli: the records' sink failed: {}\n", queueError);
        }
        if (queueDropped > 0) {
            fmt::print(stderr, "tcpscope-cli: {} records were DROPPED before the sink took them\n", queueDropped);
        }
        SinkReport spoolReport = report;
        spoolReport.recordsDropped -= queueDropped;
        warnUndelivered(options.records, spoolReport, "the next export or capture");
        return report.recordsDropped > 0 || report.recordsSpooled > 0 ? kExitNotDelivered : kExitAnalysed;
    }
};

// The sink of --to, or nullopt without it; a usage problem said on stderr sets `status`.
std::optional<SinkTarget> recordTarget(const CaptureCommandOptions& options, int& status) {
    if (options.records.to.empty()) {
        return std::nullopt;
    }
    try {
        SinkTarget target = parseSinkTarget(options.records.to);
        if (!isValidHostName(options.records.host)) {
            fmt::print(stderr,
                       "tcpscope-cli: --host '{}': give the capturing host's name (letters, digits, '.', '-', '_')\n",
                       options.records.host);
            status = kExitUsage;
            return std::nullopt;
        }
        return target;
    } catch (const std::invalid_argument& error) {
        fmt::print(stderr, "tcpscope-cli: --to {}\n", error.what());
        status = kExitUsage;
        return std::nullopt;
    }
}

// "pid 42, nginx" for the start line; every process when neither was given.
std::string whoseCalls(const SyscallRecorderFilter& processes) {
    if (processes.pids.empty() && processes.commands.empty()) {
        return "every process";
    }
    std::vector<std::string> names;
    for (const uint32_t pid : processes.pids) {
        names.push_back(fmt::format("pid {}", pid));
    }
    names.insert(names.end(), processes.commands.begin(), processes.commands.end());
    return fmt::format("{}", fmt::join(names, ", "));
}

// What the report says of the calls recorded beside the capture (capture.live.syscalls).
nlohmann::ordered_json liveCallsJson(const LiveCalls& calls, const Investigation& investigation) {
    const RecordedCalls recorded = calls.calls();
    return {{"recorded", recorded.calls.size()},
            {"lost", recorded.lostEvents},
            {"packets_with_process", calls.packetsWithProcess()},
            {"unused", investigation.recordedCallsUnused.empty()
                           ? nlohmann::ordered_json()
                           : nlohmann::ordered_json(investigation.recordedCallsUnused)}};
}

void warnAboutCalls(const LiveCalls& calls, const Investigation& investigation) {
    if (const uint64_t lost = calls.calls().lostEvents; lost > 0) {
        fmt::print(stderr, "tcpscope-cli: {} system calls were LOST (the ring buffer was full)\n", lost);
    }
    if (!calls.unattached().empty()) {
        fmt::print(stderr, "tcpscope-cli: not recorded (no such tracepoint on this kernel): {}\n",
                   fmt::join(calls.unattached(), ", "));
    }
    if (!investigation.recordedCallsUnused.empty()) {
        fmt::print(stderr, "tcpscope-cli: the recorded system calls were left out: {}\n",
                   investigation.recordedCallsUnused);
    }
}

int runCapture(const CLI::App& command, const CaptureCommandOptions& options) {
    const std::optional<DetectorOptions> detectors = resolveDetectorOptions(command, options.thresholds);
    if (!detectors) {
        return kExitUsage;
    }
    std::string problem;
    std::optional<CaptureFileOptions> file = fileOptions(options, problem);
    if (!problem.empty()) {
        fmt::print(stderr, "tcpscope-cli: {}\n", problem);
        return kExitUsage;
    }
    if (!options.syscalls && (!options.processes.pids.empty() || !options.processes.commands.empty())) {
        fmt::print(stderr, "tcpscope-cli: --pid and --comm choose whose calls --syscalls records: add --syscalls\n");
        return kExitUsage;
    }
    if (options.syscalls && file && file->ring()) {
        fmt::print(stderr, "tcpscope-cli: --syscalls writes the calls into one file: leave out --ring and --ring-seconds\n");
        return kExitUsage;
    }
    for (const std::string& name : options.processes.commands) {
        if (name.empty() || name.size() > 15) {
            fmt::print(stderr, "tcpscope-cli: --comm '{}': a command name as the kernel keeps it (1 to 15 bytes)\n",
                       name);
            return kExitUsage;
        }
    }
    std::unique_ptr<LiveCalls> calls;
    if (options.syscalls) {
        if (const std::string missing = syscallRecorderMissing(); !missing.empty()) {
            fmt::print(stderr, "tcpscope-cli: capture --syscalls: no system call recorder in this build: {}\n", missing);
            return kExitUnreadable;
        }
        if (file) {
            file->application = std::string(kRecordApplication);
        }
    }
    int status = kExitAnalysed;
    const std::optional<SinkTarget> target = recordTarget(options, status);
    if (status != kExitAnalysed) {
        return status;
    }
    const bool json = options.format == "json";
    StopSignals signals;
    // Before the session: the session's analysis thread writes into it until the session is gone.
    std::unique_ptr<LiveRecordsRun> records;
    std::unique_ptr<FindingStream> stream;
    std::unique_ptr<LiveStallVerdicts> verdicts;
    std::unique_ptr<LiveSession> session;
    try {
        std::unique_ptr<PacketSource> source;
        if (options.syscalls) {
            RecordedCaptureSource recorded = openRecordedCaptureSource(options.source, options.processes);
            source = std::move(recorded.packets);
            calls = std::move(recorded.calls);
        } else {
            source = openCaptureSource(options.source);
        }
        LiveSessionOptions sessionOptions;
        if (calls) {
            sessionOptions.companion = calls.get();
            prepareForRecordedCalls(sessionOptions.analysis);
        }
        sessionOptions.analysis.detectors = *detectors;
        sessionOptions.file = file;
        sessionOptions.maxPackets = options.count.value_or(0);
        sessionOptions.analysis.engine.indexSpill.directory = options.indexDirectory;
        const int64_t startNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count();
        stream = std::make_unique<FindingStream>(json, startNs);
        // A detector may add a finding first and write its summary at once after: print each one
        // the first time it has its summary.
        sessionOptions.onFinding = [stream = stream.get()](const Finding& finding, bool /*isNew*/) {
            stream->onFinding(finding);
        };
        sessionOptions.observers.push_back(stream.get());
        if (calls) {
            // After the stream: a verdict line comes after its finding's line.
            verdicts = std::make_unique<LiveStallVerdicts>(
                [recording = calls.get()](std::span<const ConnectionEnds> connections) {
                    return recording->callsOf(connections);
                },
                [stream = stream.get()](const LiveStallVerdict& verdict) { stream->onVerdict(verdict); });
            sessionOptions.observers.push_back(verdicts.get());
        }
        if (target) {
            records = std::make_unique<LiveRecordsRun>(*target, options, options.source.capture.device, startNs);
            sessionOptions.observers.push_back(records->records.get());
        }
        session = std::make_unique<LiveSession>(std::move(source), std::move(sessionOptions));
    } catch (const LiveCaptureError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return error.kind() == LiveErrorKind::BadFilter ? kExitUsage : kExitUnreadable;
    } catch (const PcapngWriteError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return kExitUnreadable;
    } catch (const SyscallRecorderError& error) {
        fmt::print(stderr, "tcpscope-cli: capture --syscalls: {}\n", error.what());
        return kExitUnreadable;
    } catch (const std::runtime_error& error) {  // the records' folder or spool
        fmt::print(stderr, "tcpscope-cli: --to {}: {}\n", shownTarget(options.records), error.what());
        return kExitUnreadable;
    }
    session->read([](const LiveResults& results) {
        if (const std::string& problem = results.engine.packets().spillProblem(); !problem.empty()) {
            fmt::print(stderr, "tcpscope-cli: warning: {}\n", problem);
        }
    });
    const CaptureDescription& source = session->description();
    fmt::print(stderr, "tcpscope-cli: capturing on {}{}{}{}; Ctrl-C to stop\n", source.device,
               source.filter.empty() ? "" : fmt::format(" (filter '{}')", source.filter),
               source.viaHelper ? " through tcpscope-capture" : "",
               calls ? fmt::format(" with the socket calls of {}", whoseCalls(options.processes)) : "");
    session->start();
    signals.stopOnSignal([&session = *session](int signal) {
        fmt::print(stderr, "tcpscope-cli: {}: stopping the capture\n", signal == SIGINT ? "SIGINT" : "SIGTERM");
        session.stop();
    });
    if (options.durationSeconds) {
        const auto duration = std::chrono::milliseconds(static_cast<int64_t>(*options.durationSeconds * 1000));
        if (!session->waitUntilEnded(duration)) {
            session->stop();
        }
    } else {
        while (!session->waitUntilEnded(std::chrono::hours(24))) {
        }
    }
    LiveSession::Result result = session->finish();
    if (!result.summary.error.empty()) {
        fmt::print(stderr, "tcpscope-cli: the capture stopped early: {}\n", result.summary.error);
    }
    // With --syscalls, the calls lined up with the packets as `analyze` lines up those of the written file.
    std::optional<Investigation> withCalls;
    if (calls) {
        const std::string name = result.summary.files.empty() ? "live:" + result.summary.source.device
                                                              : result.summary.files.front();
        withCalls = investigateRecordedCalls(std::move(result.analysis), *detectors, calls->calls(), name);
        warnAboutCalls(*calls, *withCalls);
        for (const RevisedVerdict& revised : revisedVerdicts(verdicts->verdicts(), withCalls->analysis)) {
            stream->onRevised(revised, result.summary.endNs);
        }
        const LiveStallVerdicts::Cost& cost = verdicts->cost();
        fmt::print(
            stderr,
            "tcpscope-cli: {} stall verdicts given live, in {} passes over the recorded calls: {:.1f} ms in all, "
            "{:.1f} ms at most, {} calls at most\n",
            verdicts->verdicts().size(), cost.passes, static_cast<double>(cost.totalNs) / 1e6,
            static_cast<double>(cost.maxNs) / 1e6, cost.mostCalls);
    }
    const CaptureAnalysis& analysis = withCalls ? withCalls->analysis : result.analysis;
    const StraceAlignment* aligned = withCalls ? withCalls->aligned() : nullptr;
    if (records) {
        records->finish(analysis);
    }
    if (json) {
        // Written as it goes, on one line (as the finding lines before it), not built as a tree:
        // the flows of a long capture would take more memory than the whole capture did.
        {
            JsonStreamWriter writer(std::cout, JsonStreamWriter::Compact{});
            nlohmann::ordered_json live = liveCaptureJson(result.summary);
            if (records) {
                live["records"] = records->json(options);
            }
            if (calls) {
                live["syscalls"] = liveCallsJson(*calls, *withCalls);
            }
            writeAnalysisReportJson(writer, analysis, aligned, Json{{"live", std::move(live)}});
        }
        std::cout << '\n';
    } else {
        std::cout << '\n';
        writeLiveCaptureText(std::cout, result.summary);
        if (records) {
            records->printText(std::cout, options);
        }
        if (calls) {
            const RecordedCalls recorded = calls->calls();
            fmt::print(std::cout, "System calls: {} recorded, {} lost, {} packets named with their process\n\n",
                       recorded.calls.size(), recorded.lostEvents, calls->packetsWithProcess());
        }
        writeAnalysisText(std::cout, analysis);
        if (aligned != nullptr) {
            writeSyscallsText(std::cout, *aligned);
        }
    }
    std::cout.flush();
    if (!result.summary.error.empty()) {
        return kExitUnreadable;
    }
    return records ? records->warn(options) : kExitAnalysed;
}

}  // namespace

Subcommand addCaptureCommand(CLI::App& app) {
    auto options = std::make_shared<CaptureCommandOptions>();
    CLI::App* command = app.add_subcommand(
        "capture", "capture live on an interface: findings as they appear, the full report at the end (Ctrl-C stops)");
    command->add_option("-i,--interface", options->source.capture.device, "interface to capture on (any: all of them)")
        ->required();
    command->add_option("--filter", options->source.capture.filter, "capture filter (tcpdump syntax), e.g. 'tcp port 3306'");
    auto* duration = command->add_option("--duration", options->durationSeconds, "stop after this many seconds");
    command->add_option("--count", options->count, "stop after this many packets")->excludes(duration);
    command->add_option("--write", options->writePath, "keep every packet in this pcapng file");
    command->add_option("--ring", options->ring,
                        "with --write: a ring of FILES files of SIZE bytes each (k, M, G), the oldest deleted, "
                        "e.g. 100M,10");
    command->add_option("--ring-seconds", options->ringSeconds, "with --write: a new file every this many seconds");
    command->add_option("--snaplen", options->source.capture.snapLength, "bytes kept per packet")->capture_default_str();
    command->add_option("--buffer-bytes", options->source.capture.bufferBytes, "kernel capture buffer in bytes")
        ->capture_default_str();
    command->add_option("--format", options->format, "text, or json: one JSON object per line per finding, then the report")
        ->check(CLI::IsMember({"text", "json"}));
    addDetectorOptions(*command, options->thresholds);
    command->add_option("--index-dir", options->indexDirectory,
                        "where the packet index moves its older part on a long capture (an unlinked file; "
                        "default: beside --write, else $TMPDIR or /tmp)");
    addRecordSinkOptions(*command, options->records, false)
        ->description("also send the capture's records while it runs: dir:PATH or clickhouse://HOST:PORT/DB");
    command->add_option("--flush-s", options->flushSeconds, "with --to: send or write out the records this often")
        ->check(CLI::Range(0.1, 3600.0));
    command->add_flag("--via-helper", options->source.viaHelper,
                      "capture through tcpscope-capture even when this process could open the device");
    command->add_flag("--syscalls", options->syscalls,
                      "also record the socket system calls of --pid/--comm (eBPF, as record does; root or CAP_BPF "
                      "and CAP_PERFMON): into the --write file, and the stalls confirmed or refuted from them");
    command->add_option("--pid", options->processes.pids, "with --syscalls: this process (and its threads); repeatable")
        ->allow_extra_args(false);
    command->add_option("--comm", options->processes.commands,
                        "with --syscalls: processes of this command name; repeatable")
        ->allow_extra_args(false);
    command->add_option("--helper", options->source.helperPath,
                        "path of tcpscope-capture (default: $TCPSCOPE_CAPTURE_HELPER, next to tcpscope-cli, PATH)");
    return {command, [command, options] { return runCapture(*command, *options); }};
}

Subcommand addInterfacesCommand(CLI::App& app) {
    auto format = std::make_shared<std::string>("text");
    CLI::App* command = app.add_subcommand("interfaces", "list the interfaces live capture can use");
    command->add_option("--format", *format, "output format")->check(CLI::IsMember({"text", "json"}));
    return {command, [format] {
                std::vector<CaptureInterface> interfaces;
                try {
                    interfaces = listCaptureInterfaces();
                } catch (const LiveCaptureError& error) {
                    fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
                    return kExitUnreadable;
                }
                if (*format == "json") {
                    nlohmann::ordered_json list = interfacesJson(interfaces);
                    list["schema"] = kReportSchema;
                    std::cout << jsonText(list, 2) << '\n';
                } else {
                    writeInterfacesText(std::cout, interfaces);
                }
                return kExitAnalysed;
            }};
}

}  // namespace tcpscope::cli
