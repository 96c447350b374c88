#pragma once
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

#include "live/live_session.hpp"
#include "live_capture/capture_settings.hpp"
#include "loading/analysis_loader.hpp"  // ResultsPtr and its Q_DECLARE_METATYPE
#include "recorder/live_calls.hpp"

namespace tcpscope::ui {

/// Counters of a running capture, for the status bar.
struct LiveCaptureStatus {
    CaptureStats kernel;           ///< captured, dropped by the kernel, dropped by the interface
    uint64_t analysisDropped = 0;  ///< captured and written, but not analysed (the analysis fell behind)
    int64_t fileBytes = 0;         ///< bytes in the capture files so far
    double seconds = 0;            ///< since the start
    bool viaHelper = false;        ///< captured by tcpscope-capture
};

/// Runs one live capture for the GUI: opens the device (here or through the capture helper),
/// runs a LiveSession that writes the pcapng file, and hands snapshots of the analysis to the
/// views a few times a second. Snapshots are made on the analysis thread by the session's
/// throttled update (at most one waits for the GUI at a time), or from the GUI's timer when a
/// finding came with the last packets of a burst; capture itself never waits for the GUI.
class LiveCaptureController : public QObject {
    Q_OBJECT

public:
    explicit LiveCaptureController(QObject* parent = nullptr);
    ~LiveCaptureController() override;
    LiveCaptureController(const LiveCaptureController&) = delete;
    LiveCaptureController& operator=(const LiveCaptureController&) = delete;

    /// Starts capturing; false (and startFailed) if the device, the filter or the file cannot be opened.
    bool start(const CaptureSettings& settings, const AnalysisOptions& analysis);
    /// Stops the capture; `finished` follows once the queued packets are analysed and the file closed.
    void stop();
    /// True from start() until `finished`.
    [[nodiscard]] bool isRunning() const { return static_cast<bool>(session_); }
    /// True between stop() and `finished`.
    [[nodiscard]] bool isStopping() const { return stopping_; }
    [[nodiscard]] const CaptureSettings& settings() const { return settings_; }
    /// The counters now (zero when not capturing).
    [[nodiscard]] LiveCaptureStatus status() const;
    /// The last snapshot handed to the views, or null.
    [[nodiscard]] const ResultsPtr& results() const { return results_; }
    /// The host whose population series the next snapshots copy (its chart is shown), or none:
    /// the copy is made under the analysis's lock, so only while someone looks at it.
    void setPopulationHost(std::optional<IpAddress> host);
    /// The findings of the live analysis at the end of the last capture (what its file must show again).
    [[nodiscard]] const FindingList& finalFindings() const { return finalFindings_; }

signals:
    /// The capture could not start: one line, and the command that fixes a missing privilege (or empty).
    void startFailed(const QString& message, const QString& fix);
    /// A new snapshot of the analysis (partial results: connections and findings so far).
    void resultsUpdated(tcpscope::ui::ResultsPtr results);
    /// The counters changed (every quarter second while capturing).
    void statusChanged();
    /// The capture ended: the files written (oldest first), a one-line summary, and what ended it
    /// early (empty if it was stopped).
    void finished(const QStringList& files, const QString& summary, const QString& error);

private:
    struct Ending {
        LiveCaptureSummary summary;
        FindingList findings;
    };
    void onTimer();
    void publish(ResultsPtr results);
    [[nodiscard]] ResultsPtr snapshot(const LiveResults& results);

    CaptureSettings settings_;
    DetectorOptions detectors_;  // of the analysis running: its snapshots count TIME_WAIT as it does
    std::unique_ptr<LiveCalls> calls_;  // the system calls recorded beside session_ (outlives it)
    std::unique_ptr<LiveSession> session_;
    QFutureWatcher<Ending> finishing_;
    QTimer timer_;
    QElapsedTimer sinceStart_;
    QElapsedTimer sinceSnapshot_;
    ResultsPtr results_;
    FindingList finalFindings_;
    std::atomic<bool> snapshotInFlight_{false};
    std::atomic<uint64_t> findingEvents_{0};       // findings made or grown (analysis thread)
    std::atomic<uint64_t> findingEventsShown_{0};  // ... as of the last snapshot
    std::atomic<uint64_t> capturedShown_{0};       // packets captured as of the last snapshot
    mutable std::mutex populationHostMutex_;       // the analysis thread reads it for its snapshots
    std::optional<IpAddress> populationHost_;
    std::atomic<bool> populationHostChanged_{false};  // a snapshot with its series is due
    int64_t fileBytes_ = 0;
    int ticks_ = 0;
    bool stopping_ = false;
};

}  // namespace tcpscope::ui
