#include "report/incidents_json.hpp"

#include <cmath>
#include <type_traits>

#include "present/value_format.hpp"

namespace tcpscope {

namespace {

using Json = nlohmann::ordered_json;

double rounded(double value) {
    return std::round(value * 1000) / 1000;
}

std::string_view rangeSourceName(PortRangeSource source) {
    switch (source) {
        case PortRangeSource::Given: return "given";
        case PortRangeSource::Filled: return "filled";
        case PortRangeSource::Observed: return "observed";
    }
    return "observed";
}

template <typename T>
void put(Json& object, const char* name, const std::optional<T>& value) {
    if (!value) {
        return;
    }
    if constexpr (std::is_floating_point_v<T>) {
        object[name] = rounded(*value);
    } else {
        object[name] = *value;
    }
}

Json impactJson(const IncidentImpact& impact) {
    Json object = Json::object();
    put(object, "requests_delayed", impact.requestsDelayed);
    put(object, "latency_p50_ms", impact.latencyP50Ms);
    put(object, "latency_p99_ms", impact.latencyP99Ms);
    put(object, "latency_max_ms", impact.latencyMaxMs);
    put(object, "latency_added_ms", impact.latencyAddedMs);
    put(object, "connections", impact.connections);
    put(object, "connections_before_stop", impact.connectionsBeforeStop);
    put(object, "pause_ms", impact.pauseMs);
    put(object, "rate_achieved_per_s", impact.rateAchievedPerS);
    put(object, "rate_sustainable_per_s", impact.rateSustainablePerS);
    if (impact.portRange) {
        object["port_range"] = {{"low", impact.portRange->low},
                                {"high", impact.portRange->high},
                                {"ports", impact.portRange->ports()},
                                {"source", rangeSourceName(impact.portRange->source)}};
    }
    put(object, "time_wait_s", impact.timeWaitS);
    put(object, "connect_failures", impact.connectFailures);
    if (!impact.connectErrno.empty()) {
        object["connect_errno"] = impact.connectErrno;
    }
    put(object, "syns_dropped", impact.synsDropped);
    if (!impact.synRetryOffsetsS.empty()) {
        Json offsets = Json::array();
        for (const double offset : impact.synRetryOffsetsS) {
            offsets.push_back(rounded(offset));
        }
        object["syn_retry_offsets_s"] = std::move(offsets);
    }
    put(object, "connections_answered", impact.connectionsAnswered);
    put(object, "wall_ms", impact.wallMs);
    return object;
}

// Every text of an incident is made here from addresses, numbers and fixed words: valid UTF-8.
Json textsJson(const std::vector<std::string>& texts) {
    return Json(texts);
}

}  // namespace

std::string_view incidentScopeName(IncidentScope scope) {
    switch (scope) {
        case IncidentScope::PortPool: return "port_pool";
        case IncidentScope::Process: return "process";
        case IncidentScope::Listener: return "listener";
        case IncidentScope::Connection: return "connection";
        case IncidentScope::Capture: return "capture";
    }
    return "capture";
}

Json incidentsJson(const std::vector<Incident>& incidents, TimeOrigin origin) {
    Json array = Json::array();
    for (const Incident& incident : incidents) {
        Json chain = Json::array();
        for (const ChainStep& step : incident.chain) {
            chain.push_back({{"what", step.what},
                             {"kind", findingKindName(step.kind)},
                             {"role", step.role == ChainRole::Cause ? "cause" : "effect"},
                             {"findings", step.findings}});
        }
        Json events = Json::array();
        for (const IncidentEvent& event : incident.events) {
            events.push_back(
                {{"ts", epochSeconds(origin, event.tsNs)}, {"what", event.what}, {"frames", event.frames}});
        }
        array.push_back(
            {{"id", incident.id},
             {"title", incident.title},
             {"severity", severityName(incident.severity)},
             {"scope", incidentScopeName(incident.scope)},
             {"subject", incident.subject},
             {"findings", incident.findings},
             {"chain", std::move(chain)},
             {"hosts", textsJson(incident.hosts)},
             {"processes", textsJson(incident.processes)},
             {"impact", impactJson(incident.impact)},
             {"fix", {{"do", textsJson(incident.fix.doThis)}, {"does_not_help", textsJson(incident.fix.doesNotHelp)}}},
             {"events", std::move(events)},
             {"caveats", incident.caveats}});
    }
    return array;
}

}  // namespace tcpscope
