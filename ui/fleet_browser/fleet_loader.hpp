#pragma once
#include <QObject>
#include <QString>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sinks/sink_spec.hpp"
#include "fleet/fleet_drilldown.hpp"
#include "fleet/fleet_queries.hpp"

namespace tcpscope::ui {

/// What the fleet's first query shows: the fleet findings and the hosts that sent records.
struct FleetOverview {
    FleetResults findings;
    std::vector<FleetHost> hosts;
};

/// Runs the fleet's queries on a pool thread, one of each kind at a time: the overview, a host's
/// (or a fleet finding's) findings, a finding's flows. A query of a kind replaces the one of that
/// kind still running: its answer is dropped, never shown. A query that fails says why in one line.
class FleetLoader : public QObject {
    Q_OBJECT

public:
    explicit FleetLoader(QObject* parent = nullptr);
    ~FleetLoader() override;
    FleetLoader(const FleetLoader&) = delete;
    FleetLoader& operator=(const FleetLoader&) = delete;

    void loadOverview(const ClickHouseTarget& target, const FleetQueryOptions& options);
    void loadFindings(const ClickHouseTarget& target, const HostFindingFilter& filter, double timeoutSeconds);
    void loadFlows(const ClickHouseTarget& target, const HostFlowFilter& filter, double timeoutSeconds);
    /// Queries still running.
    [[nodiscard]] int running() const { return running_; }

signals:
    void overviewLoaded(std::shared_ptr<const tcpscope::ui::FleetOverview> overview);
    void findingsLoaded(std::shared_ptr<const std::vector<tcpscope::HostFinding>> findings);
    void flowsLoaded(std::shared_ptr<const std::vector<tcpscope::HostFlow>> flows);
    /// A query failed: the server's message or the connection's failure.
    void failed(const QString& message);
    /// Every query ended (answered, failed or dropped).
    void idle();

private:
    enum class Query : uint8_t { Overview, Findings, Flows };
    /// Runs `work` on a pool thread (it must not touch this object: it may outlive it); `deliver`
    /// gets its answer on this object's thread unless a newer query of `kind` started meanwhile.
    template <typename Answer>
    void run(Query kind, std::function<Answer()> work, std::function<void(std::shared_ptr<const Answer>)> deliver);

    std::array<uint64_t, 3> latest_{};
    uint64_t nextId_ = 1;
    int running_ = 0;
};

}  // namespace tcpscope::ui
