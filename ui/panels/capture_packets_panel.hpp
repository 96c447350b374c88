#pragma once
#include <QFutureWatcher>
#include <QWidget>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loading/analysis_results.hpp"
#include "models/capture_packets_model.hpp"

class QLabel;
class QLineEdit;
class QTableView;

namespace tcpscope::ui {

/// The packet list of the whole capture with a display filter in Wireshark's words
/// (`tcp.analysis.flags && tcp.port == 3306`): the filter runs on a pool thread, the list shows
/// the packets it matched. Selecting a packet says its frame (the window shows its connection).
class CapturePacketsPanel : public QWidget {
    Q_OBJECT

public:
    explicit CapturePacketsPanel(QWidget* parent = nullptr);
    ~CapturePacketsPanel() override;

    /// Shows every packet of `results` (the filter is applied again once they are complete).
    void setResults(ResultsPtr results);
    /// Applies `expression` (empty: every packet). A filter that does not compile is said under the box.
    void applyFilter(const QString& expression);
    /// Selects the row of frame `frame` if it is shown, without saying it back (packetSelected).
    void selectFrame(uint32_t frame);
    /// Puts the keyboard in the filter box, its text selected.
    void focusFilter();
    [[nodiscard]] QTableView* view() const { return view_; }
    [[nodiscard]] const CapturePacketsModel& model() const { return model_; }
    /// The filter applied (trimmed; empty: every packet is shown).
    [[nodiscard]] const QString& appliedFilter() const { return applied_; }
    /// True while a filter runs.
    [[nodiscard]] bool filtering() const { return watcher_.isRunning(); }

signals:
    /// The user selected the packet of frame `frame`.
    void packetSelected(uint32_t frame);
    /// A filter finished (its rows are shown).
    void filtered();

private:
    struct Matches {
        std::optional<std::vector<size_t>> positions;
        std::string problem;
        bool stopped = false;  ///< stopped early for a newer filter: nothing to show
    };
    /// How many packets a filter matches between two looks at its stop flag.
    static constexpr size_t kStopCheckPackets = 4096;
    /// The positions of `results`' packets that `expression` matches; stops early (no positions)
    /// once `stop` is set.
    static Matches match(const ResultsPtr& results, const std::string& expression,
                         const std::shared_ptr<const std::atomic<bool>>& stop);
    void showMatches();
    void showCount();

    CapturePacketsModel model_;
    QLineEdit* filter_ = nullptr;
    QLabel* status_ = nullptr;
    QTableView* view_ = nullptr;
    QFutureWatcher<Matches> watcher_;
    /// Set to stop the filter running (a newer one replaces it).
    std::shared_ptr<std::atomic<bool>> stop_ = std::make_shared<std::atomic<bool>>(false);
    QString applied_;
    bool selecting_ = false;
};

}  // namespace tcpscope::ui
