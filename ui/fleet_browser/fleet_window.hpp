#pragma once
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <QWidget>

#include <memory>
#include <vector>

#include "sinks/sink_spec.hpp"
#include "fleet/fleet_drilldown.hpp"
#include "fleet/fleet_queries.hpp"
#include "fleet_browser/fleet_loader.hpp"

namespace tcpscope::ui {

/// A fleet's records in ClickHouse (docs/records.md), as `tcpscope-cli fleet` reads them: the fleet
/// findings (what no single host shows) and the hosts that sent records; a fleet finding or a host
/// lists its hosts' findings, and a host's finding lists that host's flows while it lasted. The
/// queries run on a pool thread (FleetLoader); the window stays responsive while the server thinks.
class FleetWindow : public QWidget {
    Q_OBJECT

public:
    explicit FleetWindow(QWidget* parent = nullptr);

    /// Sets the URL (clickhouse://HOST:PORT/DB) and the since field, and queries the fleet.
    void open(const QString& url, const QString& since = {});
    /// Queries the fleet with the fields as they are; a bad URL or time is said in the status line.
    void refresh();

    [[nodiscard]] QStandardItemModel& fleetFindingsModel() { return fleetFindings_; }
    [[nodiscard]] QStandardItemModel& hostsModel() { return hosts_; }
    [[nodiscard]] QStandardItemModel& hostFindingsModel() { return hostFindings_; }
    [[nodiscard]] QStandardItemModel& flowsModel() { return flows_; }
    [[nodiscard]] QTableView& fleetFindingsView() { return *fleetFindingsView_; }
    [[nodiscard]] QTableView& hostsView() { return *hostsView_; }
    [[nodiscard]] QTableView& hostFindingsView() { return *hostFindingsView_; }
    [[nodiscard]] QString status() const { return status_->text(); }
    [[nodiscard]] const FleetLoader& loader() const { return loader_; }

signals:
    /// Every query asked for has been answered (or failed): for tests and screenshots.
    void settled();

private:
    void showOverview(const std::shared_ptr<const FleetOverview>& overview);
    void showHostFindings(std::shared_ptr<const std::vector<HostFinding>> findings);
    void showFlows(const std::shared_ptr<const std::vector<HostFlow>>& flows);
    void fleetFindingChosen();
    void hostChosen();
    void hostFindingChosen();
    void setStatus(const QString& text);

    QLineEdit* url_;
    QLineEdit* since_;
    QSpinBox* minHosts_;
    QPushButton* refresh_;
    QLabel* status_;
    QLabel* hostFindingsTitle_;
    QLabel* flowsTitle_;
    QStandardItemModel fleetFindings_;
    QStandardItemModel hosts_;
    QStandardItemModel hostFindings_;
    QStandardItemModel flows_;
    QTableView* fleetFindingsView_;
    QTableView* hostsView_;
    QTableView* hostFindingsView_;
    QTableView* flowsView_;
    FleetLoader loader_;

    ClickHouseTarget target_;
    FleetQueryOptions options_;
    std::vector<HostFindingFilter> fleetFindingFilters_;
    std::shared_ptr<const FleetOverview> overview_;
    std::shared_ptr<const std::vector<HostFinding>> shownFindings_;
    HostFinding flowsFinding_;  // the finding whose flows are shown
};

}  // namespace tcpscope::ui
