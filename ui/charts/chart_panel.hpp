#pragma once
#include <QFutureWatcher>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "charts/chart_content.hpp"
#include "charts/chart_view.hpp"
#include "loading/analysis_results.hpp"

class QComboBox;
class QLabel;
class QLineEdit;

namespace tcpscope::ui {

class IncidentPicture;

/// The charts of the selected connection or its host, with a chooser: time-sequence, window
/// scaling and RTT of one direction of the connection, its throughput both ways, the I/O graph of
/// the capture with display filters, TIME_WAIT and ports of its client host, and the capture's
/// connection rate. Follows the GUI's selection; computes only while visible. A big chart is
/// computed on a pool thread while the view says so; a result for a selection, kind or direction
/// that changed meanwhile is dropped, never shown.
class ChartPanel : public QWidget {
    Q_OBJECT

public:
    explicit ChartPanel(QWidget* parent = nullptr);

    /// New results (or null): forgets the connection; charts need complete results.
    void setResults(ResultsPtr results);
    /// Follows the selection: the charts of `connection`, sender = the side that sent more data.
    /// The charts need a packet index (complete results or a live snapshot); the host chart of a
    /// live snapshot also its host's series (see populationHost()), which the next snapshot brings.
    void showConnection(ResultsPtr results, uint32_t connection);
    /// Newer results of the same live capture: the same connection, kind and direction (unless the
    /// user never picked one: then the side that has sent more), charted again (now if visible,
    /// else when shown) keeping the zoom; the chart shown stays until the new one is computed.
    /// The rate chart reads only the packets added since the last one.
    void refreshResults(ResultsPtr results);
    /// In place of the charts, the incident report's picture of the cause of `findings` (an incident's
    /// or a finding's of many connections): false (the charts stay) when it has none beside its
    /// sequence diagram. The next showConnection() or setResults() brings the charts back.
    bool showPicture(const ResultsPtr& results, const std::vector<uint32_t>& findings);
    /// The picture shown instead of the charts (hidden when the charts are shown).
    [[nodiscard]] const IncidentPicture& picture() const { return *picture_; }
    [[nodiscard]] bool isPictureShown() const;
    void setKind(ChartKind kind);
    /// The I/O graph's lines: display filters separated by ';' (as the packet list takes them), and
    /// whether it counts packets or payload bytes.
    void setIoFilters(const QString& filters);
    void setIoMeasure(IntervalMeasure measure);
    [[nodiscard]] QString ioFilters() const;
    /// The packet list's display filter: the I/O graph draws it too, until the user types filters
    /// of their own in its box.
    void followPacketListFilter(const QString& expression);
    /// Why the chart shown is not all that was asked (a filter that does not compile), or empty.
    [[nodiscard]] QString problem() const { return problem_; }
    /// Whose data the time-sequence and RTT charts show (the user's pick: kept by live refreshes).
    void setDirection(Side sender);
    /// Follows the selected packet (a position in the packet index): a data segment of the shown
    /// connection makes its sender the direction charted.
    void followPacket(size_t position);

    [[nodiscard]] ChartKind kind() const { return kind_; }
    [[nodiscard]] Side direction() const { return direction_; }
    [[nodiscard]] uint32_t connection() const { return connection_; }
    /// A chart is being computed on a pool thread (the view shows that it is).
    [[nodiscard]] bool isComputing() const { return computing_; }
    /// Charts of at least this many packets (the connection's, or the capture's for the host and
    /// rate charts) are computed on a pool thread; smaller ones at once. Default 20,000.
    void setBackgroundThreshold(size_t packets) { backgroundFromPackets_ = packets; }
    /// The host whose population series a live capture's snapshots must carry: the host chart's,
    /// while it is shown during a live capture; none otherwise.
    [[nodiscard]] std::optional<IpAddress> populationHost() const;
    /// The chart shown: its title, time range and render() serve the exports.
    [[nodiscard]] ChartView& view() { return *view_; }
    [[nodiscard]] const ChartView& view() const { return *view_; }

signals:
    /// A computed chart was put into the view (of the current selection, kind and direction).
    void chartShown();
    /// populationHost() may have changed.
    void populationHostChanged();

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    // What a chart is computed for; a result whose request is no longer the panel's is dropped.
    struct Request {
        ResultsPtr results;
        ChartKind kind = ChartKind::TimeSequence;
        uint32_t connection = kNoConnection;
        Side direction = Side::Server;
        IoGraphRequest io;
        bool operator==(const Request&) const = default;
    };
    struct Computed;

    void rebuild();
    [[nodiscard]] Request currentRequest() const;
    // Packets the chart of `request` walks through, to decide whether to compute it in the background.
    [[nodiscard]] size_t workOf(const Request& request) const;
    void showComputed();
    // Puts `chart` into the view; with `keepZoom`, a zoomed view keeps its x range.
    void present(ChartData chart, bool keepZoom);
    // Rebuilds the chart (now if visible, else when shown) if it is stale or `changed`.
    void refreshIf(bool changed);
    void updateDirectionNames();

    QComboBox* kindBox_ = nullptr;
    QComboBox* directionBox_ = nullptr;
    QLineEdit* ioFilterEdit_ = nullptr;
    QComboBox* ioMeasureBox_ = nullptr;
    IoGraphRequest io_;
    bool ioFiltersTyped_ = false;  // by the user: the packet list's filter no longer replaces them
    QString problem_;
    QLabel* hint_ = nullptr;
    ChartView* view_ = nullptr;
    IncidentPicture* picture_ = nullptr;
    QWidget* controls_ = nullptr;
    ResultsPtr results_;
    // of results_ (a live capture's: so far), computed on first use
    std::shared_ptr<const ConnectionAttempts> attempts_;
    QFutureWatcher<std::shared_ptr<Computed>> watcher_;
    size_t backgroundFromPackets_ = 20'000;
    bool computing_ = false;
    uint32_t connection_ = kNoConnection;
    ChartKind kind_ = ChartKind::TimeSequence;
    Side direction_ = Side::Server;
    bool stale_ = true;
    bool keepZoom_ = false;            // the next rebuild is a live refresh
    bool keepZoomOfComputed_ = false;  // ... and so is the job running
    bool refreshPending_ = false;      // newer live results came while a chart was computed
    bool directionPicked_ = false;     // by the user (or a packet they selected), not by the data sent
};

}  // namespace tcpscope::ui
