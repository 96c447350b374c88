#pragma once
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <cstdint>
#include <memory>

#include "analysis/capture_analysis.hpp"
#include "loading/analysis_results.hpp"
#include "loading/load_request.hpp"

namespace tcpscope::ui {

/// Runs one analysis at a time on a pool thread. It reports progress (only when the shown value
/// changes), partial results a few times a second while a file loads, then the complete
/// results, with the strace logs aligned and the findings confirmed by them. Starting a new
/// load cancels the running one, and results of a replaced job are
/// dropped, never shown.
class AnalysisLoader : public QObject {
    Q_OBJECT

public:
    explicit AnalysisLoader(QObject* parent = nullptr);
    ~AnalysisLoader() override;
    AnalysisLoader(const AnalysisLoader&) = delete;
    AnalysisLoader& operator=(const AnalysisLoader&) = delete;

    /// Starts analysing the request's captures (merged in time order) and aligning its strace
    /// logs; cancels a running job.
    void start(const LoadRequest& request);
    /// Asks the running job to stop; its results up to there arrive as complete results.
    void cancel();
    [[nodiscard]] bool isRunning() const { return static_cast<bool>(job_); }

signals:
    /// Per mille of the input read, and frames analysed so far.
    void progressChanged(int perMille, quint64 frames);
    /// Results so far of the running job (connections and findings; no packet index yet).
    void partialResults(tcpscope::ui::ResultsPtr results);
    /// The job ended (finished or cancelled): its complete results.
    void finished(tcpscope::ui::ResultsPtr results, bool cancelled);
    /// The job could not run: a file that cannot be read, an invalid filter. One line.
    void failed(const QString& message);
    /// Something went wrong that leaves the results usable (a capture cut short, an strace log
    /// that cannot be read): one line each, sent before finished().
    void warning(const QString& message);
    /// An strace log was read but does not fit the capture (or is no strace log): the reason in
    /// one line. The results are the capture's alone; sent before finished().
    void straceRejected(const QString& reason);

private:
    struct Job;
    void pollProgress();

    std::shared_ptr<Job> job_;
    uint64_t nextJobId_ = 1;
    QTimer progressTimer_;
    int shownPerMille_ = -1;
};

}  // namespace tcpscope::ui

Q_DECLARE_METATYPE(tcpscope::ui::ResultsPtr)
