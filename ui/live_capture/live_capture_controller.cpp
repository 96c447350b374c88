#include "live_capture/live_capture_controller.hpp"

#include <QDir>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>
#include <stdexcept>

#include "capture/bpf_filter.hpp"
#include "capture/pcapng_writer.hpp"
#include "detect/detector_set.hpp"
#include "investigation/investigation.hpp"
#include "live/capture_source.hpp"
#include "live/live_error.hpp"
#include "live_capture/permission_fix.hpp"
#include "recorder/recorded_capture_source.hpp"

namespace tcpscope::ui {

namespace {

constexpr int kTimerMs = 250;
// A finding that came with the last packets of a burst gets no throttled update after it: the
// timer takes a snapshot itself when the last one is this old and something changed since.
constexpr qint64 kTrailingSnapshotMs = 400;
constexpr size_t kMaxLiveConnections = 200'000;

// Bytes in the capture files so far: the file, or every file of the ring (NAME_00001.pcapng, ...).
int64_t bytesWritten(const CaptureSettings& settings) {
    const QFileInfo file(settings.outputPath);
    if (settings.ringFileBytes == 0) {
        return QFileInfo(file.absoluteFilePath()).size();
    }
    int64_t bytes = 0;
    const QString pattern = QStringLiteral("%1_*.%2").arg(file.completeBaseName(), file.suffix());
    for (const QFileInfo& part : file.absoluteDir().entryInfoList({pattern}, QDir::Files)) {
        bytes += part.size();
    }
    return bytes;
}

QString summaryOf(const LiveCaptureSummary& summary) {
    return QObject::tr("%1 packets captured on %2, %3 dropped by the kernel, %4 not analysed, %5 written to %6 file(s)")
        .arg(summary.kernel.captured)
        .arg(QString::fromStdString(summary.source.device))
        .arg(summary.kernel.droppedByKernel)
        .arg(summary.analysisDropped)
        .arg(summary.written)
        .arg(summary.files.size());
}

}  // namespace

LiveCaptureController::LiveCaptureController(QObject* parent) : QObject(parent) {
    timer_.setInterval(kTimerMs);
    connect(&timer_, &QTimer::timeout, this, &LiveCaptureController::onTimer);
    connect(&finishing_, &QFutureWatcher<Ending>::finished, this, [this] {
        const Ending ending = finishing_.result();
        const LiveCaptureSummary& summary = ending.summary;
        finalFindings_ = ending.findings;
        timer_.stop();
        session_.reset();
        stopping_ = false;
        QStringList files;
        for (const std::string& file : summary.files) {
            files << QString::fromStdString(file);
        }
        emit finished(files, summaryOf(summary), QString::fromStdString(summary.error));
    });
}

LiveCaptureController::~LiveCaptureController() {
    if (finishing_.isRunning()) {
        finishing_.waitForFinished();
    }
    session_.reset();  // stops the capture and joins its threads before this object goes
}

bool LiveCaptureController::start(const CaptureSettings& settings, const AnalysisOptions& analysis) {
    if (session_) {
        return false;
    }
    settings_ = settings;
    detectors_ = analysis.detectors;
    findingEvents_ = 0;
    findingEventsShown_ = 0;
    capturedShown_ = 0;
    snapshotInFlight_ = false;
    results_.reset();
    finalFindings_.clear();
    try {
        if (!QDir().mkpath(QFileInfo(settings.outputPath).absolutePath())) {
            throw PcapngWriteError(InputProblem{settings.outputPath.toStdString(), 0, "cannot create its directory"});
        }
        CaptureSourceOptions sourceOptions;
        sourceOptions.capture = settings.captureOptions();
        std::unique_ptr<PacketSource> source;
        LiveSessionOptions options;
        options.analysis = analysis;
        calls_.reset();
        if (const std::optional<SyscallRecorderFilter> processes = settings.syscallFilter()) {
            if (settings.ringFileBytes != 0) {
                throw std::invalid_argument("the system calls are written into one file: turn the ring of files off");
            }
            // The calls go into the file, which the window opens when the capture ends: the stalls
            // are confirmed there from them, as `analyze` of the file confirms them. Without the
            // privileges the capture helper records them.
            RecordedCaptureSource recorded = openRecordedCaptureSource(sourceOptions, *processes);
            source = std::move(recorded.packets);
            calls_ = std::move(recorded.calls);
            options.companion = calls_.get();
            prepareForRecordedCalls(options.analysis);
        } else {
            source = openCaptureSource(sourceOptions);
        }
        options.file = settings.fileOptions();
        options.onFinding = [this](const Finding& /*finding*/, bool /*isNew*/) { ++findingEvents_; };
        options.onUpdate = [this](const LiveResults& results) {
            if (!snapshotInFlight_.exchange(true)) {
                publish(snapshot(results));
            }
        };
        session_ = std::make_unique<LiveSession>(std::move(source), std::move(options));
    } catch (const LiveCaptureError& error) {
        const QString message = QString::fromUtf8(error.what());
        emit startFailed(message, error.kind() == LiveErrorKind::PermissionDenied ? permissionFix(message) : QString());
        return false;
    } catch (const SyscallRecorderError& error) {
        emit startFailed(tr("Cannot record the system calls: %1").arg(QString::fromUtf8(error.what())), QString());
        return false;
    } catch (const std::exception& error) {  // the file (PcapngWriteError), the analysis filter (BpfFilterError)
        emit startFailed(QString::fromUtf8(error.what()), QString());
        return false;
    }
    session_->start();
    sinceStart_.start();
    sinceSnapshot_.start();
    fileBytes_ = 0;
    ticks_ = 0;
    timer_.start();
    emit statusChanged();
    return true;
}

void LiveCaptureController::stop() {
    if (!session_ || stopping_) {
        return;
    }
    stopping_ = true;
    session_->stop();
    // finish() waits for the analysis of every queued packet and closes the file: not on the GUI thread.
    finishing_.setFuture(QtConcurrent::run([session = session_.get()] {
        LiveSession::Result result = session->finish();
        return Ending{std::move(result.summary), std::move(result.analysis.findings)};
    }));
    emit statusChanged();
}

LiveCaptureStatus LiveCaptureController::status() const {
    LiveCaptureStatus status;
    if (session_) {
        status.kernel = session_->stats();
        status.analysisDropped = session_->analysisDropped();
        status.viaHelper = session_->description().viaHelper;
        status.seconds = static_cast<double>(sinceStart_.elapsed()) / 1000.0;
    }
    status.fileBytes = fileBytes_;
    return status;
}

ResultsPtr LiveCaptureController::snapshot(const LiveResults& results) {
    // Read before the copy, on the thread that makes findings (or under its lock): a finding made
    // after this is either in the copy or counted as not shown yet.
    findingEventsShown_ = findingEvents_.load();
    capturedShown_ = session_->stats().captured;
    populationHostChanged_ = false;
    std::optional<IpAddress> host;
    {
        const std::lock_guard lock(populationHostMutex_);
        host = populationHost_;
    }
    std::vector<HostPopulation> populations =
        host ? results.detectors.populationsOf(*host) : std::vector<HostPopulation>{};
    return AnalysisResults::partialWithPackets(results, kMaxLiveConnections, host, std::move(populations), detectors_);
}

void LiveCaptureController::setPopulationHost(std::optional<IpAddress> host) {
    const std::lock_guard lock(populationHostMutex_);
    if (host != populationHost_) {
        populationHost_ = host;
        populationHostChanged_ = host.has_value();  // the next timer tick makes a snapshot with its series
    }
}

void LiveCaptureController::publish(ResultsPtr results) {
    // From the analysis thread: the GUI takes it in its own time; the next one waits for it.
    QMetaObject::invokeMethod(
        this,
        [this, results = std::move(results)] {
            snapshotInFlight_ = false;
            sinceSnapshot_.restart();
            if (session_ && !stopping_) {
                results_ = results;
                emit resultsUpdated(results);
            }
        },
        Qt::QueuedConnection);
}

void LiveCaptureController::onTimer() {
    if (!session_ || stopping_) {
        return;
    }
    if (++ticks_ % 4 == 1) {
        fileBytes_ = bytesWritten(settings_);
    }
    if (session_->waitUntilEnded(std::chrono::milliseconds(0))) {
        stop();  // the device went away, the helper died, the disk is full: finish with the error
        return;
    }
    const bool changed =
        findingEvents_ != findingEventsShown_ || session_->stats().captured != capturedShown_ || populationHostChanged_;
    if (changed && sinceSnapshot_.elapsed() >= kTrailingSnapshotMs && !snapshotInFlight_.exchange(true)) {
        ResultsPtr results;
        session_->read([this, &results](const LiveResults& live) { results = snapshot(live); });
        publish(std::move(results));
    }
    emit statusChanged();
}

}  // namespace tcpscope::ui
