#pragma once
#include <QString>
#include <vector>

#include "finding/finding.hpp"
#include "finding/finding_list.hpp"
#include "tcp/connection.hpp"

namespace tcpscope::ui {

/// Per connection id, what its findings cost and which kinds they are ("delayed_ack_stall,
/// port_reuse"). Computed with each results snapshot on the loading thread, so the connections
/// table takes a snapshot of 100k connections without work on the GUI thread.
struct ConnectionFindings {
    std::vector<double> timeLostMs;  ///< sum of the findings' durations
    std::vector<QString> kinds;      ///< sorted, distinct, joined with ", "; empty without findings

    static ConnectionFindings of(const ConnectionStore& connections, const FindingList& findings);
};

}  // namespace tcpscope::ui
