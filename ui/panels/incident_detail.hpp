#pragma once
#include <QString>

#include "incident/incident.hpp"

namespace tcpscope::ui {

/// The details panel's text for an incident, as HTML, the answer first: its title and severity, its
/// impact in one line (the CLI's impactLine), its chain of cause and effect, then the fix ("Fix:") and
/// what does not help ("Does not help:"), one sentence each.
QString incidentDetailHtml(const Incident& incident);

}  // namespace tcpscope::ui
