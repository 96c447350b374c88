#include "loading/analysis_loader.hpp"

#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <chrono>

#include "capture/bpf_filter.hpp"
#include "capture/capture_error.hpp"
#include "investigation/investigation.hpp"

namespace tcpscope::ui {

namespace {
constexpr int kProgressPollMs = 100;
constexpr auto kPartialEvery = std::chrono::milliseconds(300);
// A partial result costs the loading thread its copy and the GUI thread its models, both growing
// with the results: the next one waits at least this many times what the last one cost, so that
// on a capture of millions of packets they take about a tenth of the load instead of most of it;
// and none is made when the load will end within this many times what it would cost (or within
// kPartialEvery).
constexpr int kPartialCostFactor = 10;
constexpr size_t kMaxPartialConnections = 200'000;

using Clock = std::chrono::steady_clock;

// The time the load still needs at the pace it has had so far (the longest while nothing is
// known: nothing read yet, or a size that is not known).
Clock::duration remainingLoadTime(const LoadProgress& progress, Clock::duration elapsed) {
    const uint64_t done = progress.bytesDone.load();
    const uint64_t total = progress.bytesTotal.load();
    if (done == 0 || total == 0) {
        return Clock::duration::max();
    }
    const double left = static_cast<double>(total - std::min(done, total)) / static_cast<double>(done);
    const std::chrono::duration<double> remaining = std::chrono::duration<double>(elapsed) * left;
    return remaining < Clock::duration::max() ? std::chrono::duration_cast<Clock::duration>(remaining)
                                              : Clock::duration::max();
}

std::vector<std::string> toPaths(const QStringList& files) {
    std::vector<std::string> paths;
    paths.reserve(static_cast<size_t>(files.size()));
    for (const QString& file : files) {
        paths.push_back(file.toStdString());
    }
    return paths;
}

// The problems that ended a file early and its warnings: the packets before them are shown.
QStringList inputProblems(const CaptureAnalysis& analysis) {
    QStringList lines;
    for (const InputSummary& input : analysis.inputs) {
        for (const InputProblem& problem : input.errors) {
            lines << QStringLiteral("%1 (the %2 packets before it are shown)")
                         .arg(QString::fromStdString(problem.describe()))
                         .arg(input.frames);
        }
        for (const InputProblem& problem : input.warnings) {
            lines << QString::fromStdString(problem.describe());
        }
    }
    return lines;
}
}  // namespace

// What the worker and the GUI thread share about one job.
struct AnalysisLoader::Job {
    uint64_t id = 0;
    // A partial result is on its way to the GUI thread: the next ones are skipped until it is
    // shown, so a GUI slower than the loader never falls behind on a queue of stale snapshots.
    std::atomic<bool> partialInFlight{false};
    // Time the GUI thread took to show the last partial result.
    std::atomic<std::chrono::steady_clock::duration::rep> partialShownTicks{0};
    LoadProgress progress;
    StopToken stop;
};

AnalysisLoader::AnalysisLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ResultsPtr>();
    progressTimer_.setInterval(kProgressPollMs);
    connect(&progressTimer_, &QTimer::timeout, this, &AnalysisLoader::pollProgress);
}

AnalysisLoader::~AnalysisLoader() {
    cancel();
    QThreadPool::globalInstance()->waitForDone();
}

void AnalysisLoader::cancel() {
    if (job_) {
        job_->stop.requestStop();
    }
}

void AnalysisLoader::start(const LoadRequest& request) {
    cancel();
    auto job = std::make_shared<Job>();
    job->id = nextJobId_++;
    job_ = job;
    shownPerMille_ = -1;
    progressTimer_.start();

    QThreadPool::globalInstance()->start([this, job, captures = toPaths(request.captures),
                                          straceLogs = toPaths(request.straceLogs), options = request.options,
                                          clock = request.clock, points = request.points]() {
        // Delivers to the GUI thread, and only if this job is still the current one.
        auto deliver = [this, job](auto emitter) {
            QMetaObject::invokeMethod(
                this,
                [this, job, emitter]() {
                    if (job_ == job) {
                        emitter();
                    }
                },
                Qt::QueuedConnection);
        };
        auto fail = [this, &deliver](const QString& message) {
            deliver([this, message]() {
                job_.reset();
                progressTimer_.stop();
                emit failed(message);
            });
        };
        const auto started = Clock::now();
        auto lastPartial = started;
        uint64_t framesAtLastPartial = 0;
        Clock::duration lastCopy{};
        const AnalysisCheckpointFn checkpoint = [&](const AnalysisCheckpoint& point) {
            const auto now = Clock::now();
            const Clock::duration lastCost = lastCopy + Clock::duration(job->partialShownTicks.load());
            if (now - lastPartial < std::max<Clock::duration>(kPartialEvery, kPartialCostFactor * lastCost)) {
                return;
            }
            // Nor when the complete results come sooner: a partial one would not be worth its cost,
            // which grows with the results since the last one (the findings' copy above all), or
            // would be shown for less than the interval (the complete results are the first ones of
            // a small file).
            const uint64_t frames = point.engine.counters().frames;
            const double growth =
                framesAtLastPartial > 0 ? static_cast<double>(frames) / static_cast<double>(framesAtLastPartial) : 1;
            const auto expectedCost = std::chrono::duration_cast<Clock::duration>(lastCost * growth);
            if (std::max<Clock::duration>(kPartialEvery, kPartialCostFactor * expectedCost) >
                remainingLoadTime(job->progress, now - started)) {
                return;
            }
            if (job->partialInFlight.exchange(true)) {
                return;
            }
            lastPartial = now;
            framesAtLastPartial = frames;
            ResultsPtr results = AnalysisResults::partial(point, kMaxPartialConnections, options.detectors);
            lastCopy = Clock::now() - now;
            deliver([this, results, job]() {
                const auto shownFrom = Clock::now();
                emit partialResults(results);
                job->partialShownTicks = (Clock::now() - shownFrom).count();
                job->partialInFlight = false;
            });
        };
        // Capture points: no partial results (the clocks are fitted before the first frame is analysed).
        InvestigationInputs inputs;
        inputs.captures = captures;
        inputs.points = points;
        inputs.straceLogs = straceLogs;
        inputs.straceClock = clock;
        inputs.options = options;
        Investigation investigation;
        try {
            investigation = investigate(inputs, &job->progress, &job->stop, checkpoint);
        } catch (const CaptureError& error) {
            fail(QString::fromStdString(error.what()));
            return;
        } catch (const BpfFilterError& error) {
            fail(QStringLiteral("invalid filter expression: %1").arg(error.what()));
            return;
        }
        QStringList warnings = inputProblems(investigation.analysis);
        if (!investigation.straceProblem.empty()) {
            warnings << QStringLiteral("%1 (shown without system calls)")
                            .arg(QString::fromStdString(investigation.straceProblem));
        }
        const bool cancelled = job->stop.stopRequested();
        const QString rejected =
            investigation.straceMismatch ? QString::fromStdString(investigation.straceMismatch->reason) : QString();
        const ResultsPtr results = AnalysisResults::complete(std::move(investigation));
        deliver([this, results, cancelled, warnings, rejected]() {
            job_.reset();
            progressTimer_.stop();
            for (const QString& line : warnings) {
                emit warning(line);
            }
            if (!rejected.isEmpty()) {
                emit straceRejected(rejected);
            }
            emit progressChanged(1000, static_cast<quint64>(results->counters().frames));
            emit finished(results, cancelled);
        });
    });
}

void AnalysisLoader::pollProgress() {
    if (!job_) {
        return;
    }
    const uint64_t total = job_->progress.bytesTotal.load();
    const uint64_t done = job_->progress.bytesDone.load();
    const int perMille = total > 0 ? static_cast<int>(std::min<uint64_t>(1000, done * 1000 / total)) : -1;
    if (perMille != shownPerMille_) {
        shownPerMille_ = perMille;
        emit progressChanged(perMille, static_cast<quint64>(job_->progress.frames.load()));
    }
}

}  // namespace tcpscope::ui
