#pragma once
#include <QString>

#include "incident/incident.hpp"

namespace tcpscope::ui {

/// The details panel's text for an incident, as HTML, the answer and the fix first: its title and
/// severity, its impact in one line (the CLI's impactLine), the fix ("Fix:", one sentence each), then its
/// chain of cause and effect and what does not help ("Does not help:").
QString incidentDetailHtml(const Incident& incident);

}  // namespace tcpscope::ui
