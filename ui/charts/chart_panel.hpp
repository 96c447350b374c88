#pragma once
#include <QWidget>
#include <cstdint>
#include <optional>

#include "charts/chart_content.hpp"
#include "charts/chart_view.hpp"
#include "loading/analysis_results.hpp"

class QComboBox;
class QLabel;

namespace tcpscope::ui {

/// The charts of the selected connection or its host, with a chooser: time-sequence and RTT of
/// one direction of the connection, TIME_WAIT and ports of its client host, and the capture's
/// connection rate. Follows the GUI's selection; computes only while visible.
class ChartPanel : public QWidget {
    Q_OBJECT

public:
    explicit ChartPanel(QWidget* parent = nullptr);

    /// New results (or null): forgets the connection; charts need complete results.
    void setResults(ResultsPtr results);
    /// Follows the selection: the charts of `connection`, sender = the side that sent more data.
    void showConnection(ResultsPtr results, uint32_t connection);
    void setKind(ChartKind kind);
    /// Whose data the time-sequence and RTT charts show.
    void setDirection(Side sender);
    /// Follows the selected packet (a position in the packet index): a data segment of the shown
    /// connection makes its sender the direction charted.
    void followPacket(size_t position);

    [[nodiscard]] ChartKind kind() const { return kind_; }
    [[nodiscard]] Side direction() const { return direction_; }
    [[nodiscard]] uint32_t connection() const { return connection_; }
    /// The chart shown: its title, time range and render() serve the exports.
    [[nodiscard]] ChartView& view() { return *view_; }
    [[nodiscard]] const ChartView& view() const { return *view_; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    void rebuild();
    // Rebuilds the chart (now if visible, else when shown) if it is stale or `changed`.
    void refreshIf(bool changed);
    void updateDirectionNames();

    QComboBox* kindBox_ = nullptr;
    QComboBox* directionBox_ = nullptr;
    QLabel* hint_ = nullptr;
    ChartView* view_ = nullptr;
    ResultsPtr results_;
    std::optional<ConnectionAttempts> attempts_;  // of results_, computed on first use
    uint32_t connection_ = kNoConnection;
    ChartKind kind_ = ChartKind::TimeSequence;
    Side direction_ = Side::Server;
    bool stale_ = true;
};

}  // namespace tcpscope::ui
