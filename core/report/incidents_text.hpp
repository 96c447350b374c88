#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "incident/incident.hpp"

namespace tcpscope {

/// The incidents as `tcpscope-cli analyze` prints them first: per incident its severity and title, its
/// chain, one line of impact in the user's terms, and the fix.
void writeIncidentsText(std::ostream& out, const std::vector<Incident>& incidents);

/// The impact's figures in one line: "28,232 connections before the stop, a 24.86 s pause, 465/s
/// achieved against 470.5/s sustainable (32768-60999: 28,232 ports, 60 s TIME_WAIT)".
std::string impactLine(const IncidentImpact& impact);

}  // namespace tcpscope
