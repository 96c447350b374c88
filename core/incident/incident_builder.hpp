#pragma once
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "detect/detector_options.hpp"
#include "incident/incident.hpp"
#include "tcp/proxy_pair.hpp"

namespace tcpscope {

/// The incidents of an analysis: its findings linked into stories (linkFindings), each with its chain,
/// hosts, impact in the user's terms measured from the connections, the fix that fits the capture
/// (fixFor), a title and its events; most severe and costly first. Called once per investigation,
/// after the strace logs confirmed the findings (their failed connect() calls are figures here).
///
/// Severity is the cost: error when the incident stopped or failed something the user asked for (a
/// port pool that paused or ended on a full range, connect() calls that failed, SYNs dropped) or when
/// users waited a second or more in all (wall-clock); warning when something waited at all; info when
/// nothing waited (a fragile pattern, such as reuse of a server's TIME_WAIT that it accepted). A story of
/// info findings only whose connections carried many requests each (keep-alive closed by the server
/// now and then) is no incident.
/// `sameHost` says which two addresses are one host where capture points tell (linkFindings).
std::vector<Incident> buildIncidents(const CaptureAnalysis& analysis, const DetectorOptions& options,
                                     const SameHost& sameHost = {});

}  // namespace tcpscope
