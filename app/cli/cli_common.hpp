#pragma once
// What every tcpscope-cli subcommand shares: exit codes, the options that choose and analyse
// captures (files, filter, detector thresholds, strace logs), and loading them.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"
#include "detect/detector_options.hpp"
#include "investigation/investigation.hpp"
#include "tcp/chunk_memory.hpp"

namespace tcpscope::cli {

// Exit codes, documented in the README.
constexpr int kExitAnalysed = 0;
constexpr int kExitUsage = 2;
constexpr int kExitUnreadable = 3;
constexpr int kExitNotDelivered = 4;  ///< export: records wait in the spool, or were dropped
constexpr int kExitStraceMismatch = 5;  ///< a strace log that does not fit the capture (or is no strace log)

/// A subcommand: its options are registered on the app; run() is called when it was chosen.
struct Subcommand {
    CLI::App* command = nullptr;
    std::function<int()> run;
};

/// The detectors' thresholds as given: --os picks the defaults, the other flags override them.
struct ThresholdOptions {
    std::string os = "linux";
    std::string portRange;
    DetectorOptions detectors;  ///< the values of the flags given (the others are ignored)
};

/// The captures to analyse and how.
struct AnalysisInputOptions {
    std::vector<std::string> files;
    /// --point NAME=FILE as given: several capture points of one incident (addCapturePointOption).
    std::vector<std::string> points;
    /// --clock NAME=OFFSET_MS[,DRIFT_PPM] as given: a point's clock instead of the fitted one.
    std::vector<std::string> clocks;
    std::string filter;
    ThresholdOptions thresholds;
    std::vector<std::string> straceLogs;
    std::string straceTz;
    std::optional<double> straceOffsetMs;
    /// The command reads the packet index (listings, diagrams, notes on packets). When false, the
    /// index is kept only if strace logs are given (their alignment reads it).
    bool readsPackets = true;
    /// The command reads no finding's summary, frames or evidence, or writes each finding once, in
    /// order, through CaptureAnalysis::completeFinding: they are described as they are written
    /// (AnalysisOptions::describeWhenWritten). Not with strace logs, whose checks read the spans.
    bool describesWhenWritten = false;
    /// --spill-dir: where the records of every connection and the detectors' states of each go
    /// (ChunkSpill); empty to let the size of the input and the memory available decide.
    std::string spillDirectory;
    bool noSpill = false;  ///< --no-spill: keep them in memory whatever the size
    std::shared_ptr<ChunkSpill> spill;  ///< on from the load to the end of the command (loadAnalysis)
};

/// An analysis holds about one byte of memory for every two of its input at most (W1, many short
/// connections: 7.2 GB for 15.8 GB at 100 M packets): an input larger than twice the memory
/// available spills by itself.
constexpr uintmax_t kAnalysisBytesPerMemoryByte = 2;

/// Registers files (one, or several merged), --filter, the detector thresholds and the strace options.
void addAnalysisInputOptions(CLI::App& command, AnalysisInputOptions& options, bool severalFiles);

/// Registers --point NAME=FILE and --clock NAME=OFFSET_MS[,DRIFT_PPM] (both repeatable) and lets
/// the files be left out when --point is given.
void addCapturePointOption(CLI::App& command, AnalysisInputOptions& options);

/// Registers --os and every detector threshold (group "Detector thresholds").
void addDetectorOptions(CLI::App& command, ThresholdOptions& options);

/// The --os defaults under the values given explicitly on `command`. Prints the error and returns
/// nullopt for a bad --port-range.
std::optional<DetectorOptions> resolveDetectorOptions(const CLI::App& command, const ThresholdOptions& options);


/// Resolves the detector options and investigates: analyses the files and aligns the strace logs. Problems go to
/// stderr, one line each. Returns kExitAnalysed, or the exit code to stop with.
int loadAnalysis(const CLI::App& command, AnalysisInputOptions& options, Investigation& loaded);

/// Prints the problems that ended a file early and the warnings; the analysis still goes on.
void reportInputProblems(const CaptureAnalysis& analysis);

}  // namespace tcpscope::cli
