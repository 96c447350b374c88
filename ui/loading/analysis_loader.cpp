#include "loading/analysis_loader.hpp"

#include <QThreadPool>

#include <chrono>

#include "capture/bpf_filter.hpp"
#include "capture/capture_error.hpp"

namespace tcpscope::ui {

namespace {
constexpr int kProgressPollMs = 100;
constexpr auto kPartialEvery = std::chrono::milliseconds(300);
constexpr size_t kMaxPartialConnections = 200'000;
}  // namespace

// What the worker and the GUI thread share about one job.
struct AnalysisLoader::Job {
    uint64_t id = 0;
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

void AnalysisLoader::start(const QStringList& captures, const AnalysisOptions& options) {
    cancel();
    auto job = std::make_shared<Job>();
    job->id = nextJobId_++;
    job_ = job;
    shownPerMille_ = -1;
    progressTimer_.start();

    std::vector<std::string> paths;
    for (const QString& capture : captures) {
        paths.push_back(capture.toStdString());
    }
    QThreadPool::globalInstance()->start([this, job, paths, options]() {
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
        auto lastPartial = std::chrono::steady_clock::now();
        const AnalysisCheckpointFn checkpoint = [&](const AnalysisCheckpoint& point) {
            const auto now = std::chrono::steady_clock::now();
            if (now - lastPartial < kPartialEvery) {
                return;
            }
            lastPartial = now;
            ResultsPtr results = AnalysisResults::partial(point, kMaxPartialConnections);
            deliver([this, results]() { emit partialResults(results); });
        };
        try {
            CaptureAnalysis analysis = analyzeCaptures(paths, options, &job->progress, &job->stop, checkpoint);
            ResultsPtr results = AnalysisResults::complete(std::move(analysis));
            const bool cancelled = job->stop.stopRequested();
            deliver([this, results, cancelled]() {
                job_.reset();
                progressTimer_.stop();
                emit progressChanged(1000, static_cast<quint64>(results->counters().frames));
                emit finished(results, cancelled);
            });
        } catch (const CaptureError& error) {
            const QString message = QString::fromStdString(error.what());
            deliver([this, message]() {
                job_.reset();
                progressTimer_.stop();
                emit failed(message);
            });
        } catch (const BpfFilterError& error) {
            const QString message = QStringLiteral("invalid filter expression: %1").arg(error.what());
            deliver([this, message]() {
                job_.reset();
                progressTimer_.stop();
                emit failed(message);
            });
        }
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
