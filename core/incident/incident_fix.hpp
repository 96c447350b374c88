#pragma once
#include <optional>

#include "detect/detector_options.hpp"
#include "incident/incident.hpp"
#include "incident/incident_linking.hpp"
#include "incident/listener_figures.hpp"
#include "incident/port_pool_figures.hpp"

namespace tcpscope {

/// What an incident's fix is built from: its story and what was measured of it.
struct FixEvidence {
    const LinkedFindings& story;
    const PortPoolFigures* pool = nullptr;      ///< a port pool of clients
    const ListenerFigures* listener = nullptr;  ///< a listener
    std::optional<uint16_t> fixedSourcePort;    ///< every connection of the story came from this client port
    const DetectorOptions& options;             ///< the hosts' system: TIME_WAIT, port range
};

/// The fix that fits this capture, one sentence each: what to do, and what would not help. Said from
/// the evidence, never against it: a fixed source port is named, a range by its own numbers, the
/// proxy by its endpoint; Linux's TIME_WAIT facts only where TIME_WAIT is Linux's 60 s.
IncidentFix fixFor(const FixEvidence& evidence);

}  // namespace tcpscope
