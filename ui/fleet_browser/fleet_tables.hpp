#pragma once
#include <QStandardItemModel>

#include <vector>

#include "fleet/fleet_drilldown.hpp"
#include "fleet/fleet_queries.hpp"

namespace tcpscope::ui {

/// The columns of the fleet window's four tables, filled from the fleet queries' answers. The first
/// cell of each row holds (Qt::UserRole) the index of what it shows in the list it was filled from,
/// so that a sorted table still finds it (rowSource()).

/// Severity, kind, towards, hosts, what, window (UTC); most hosts first as the queries order them.
/// Returns, per row, the filter of its drill-down: its hosts' findings in its window.
std::vector<HostFindingFilter> fillFleetFindings(QStandardItemModel& model, const FleetResults& results,
                                                 const FleetQueryOptions& options);
/// Host, flows, findings, captures, first and last record (UTC).
void fillFleetHosts(QStandardItemModel& model, const std::vector<FleetHost>& hosts);
/// Time (UTC), host, severity, kind, towards, wall-clock, connection-time, summary.
void fillHostFindings(QStandardItemModel& model, const std::vector<HostFinding>& findings);
/// Flow, client, server, start (UTC), duration, state, packets, bytes, RTT, time lost; the flow of
/// `finding` (if it names one) in bold.
void fillHostFlows(QStandardItemModel& model, const std::vector<HostFlow>& flows, const HostFinding* finding);

/// The index in its list of what the row of `index` shows; -1 for no row.
int rowSource(const QModelIndex& index);

/// "2026-11-21 03:29:00" (UTC) of a UTC time in ns.
QString utcText(int64_t tsNs);

}  // namespace tcpscope::ui
