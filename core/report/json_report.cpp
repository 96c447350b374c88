#include "report/json_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "decode/packet_decoder.hpp"
#include "report/report_format.hpp"
#include "report/syscalls_json.hpp"
#include "report/time_lost.hpp"

namespace tcpscope {

namespace {

Json problemJson(const InputProblem& problem) {
    return Json{{"file", problem.file}, {"offset", problem.offset}, {"reason", problem.reason}};
}

Json perSide(uint64_t fromClient, uint64_t fromServer) {
    return Json{{"client_to_server", fromClient}, {"server_to_client", fromServer}};
}

std::string containerSummary(const std::vector<InputSummary>& inputs) {
    std::string format;
    for (const InputSummary& input : inputs) {
        if (format.empty()) {
            format = input.format.container;
        } else if (format != input.format.container) {
            return "mixed";
        }
    }
    return format;
}

}  // namespace

Json captureJson(const CaptureAnalysis& analysis) {
    const AnalysisEngine& engine = *analysis.engine;
    const FrameCounters& counters = engine.counters();
    Json files = Json::array();
    Json warnings = Json::array();
    Json errors = Json::array();
    for (const InputSummary& input : analysis.inputs) {
        Json linkTypes = Json::array();
        for (uint32_t linkType : input.linkTypes) {
            linkTypes.push_back(linkTypeName(linkType));
        }
        files.push_back(Json{{"path", input.path},
                             {"format", input.format.container},
                             {"compression", input.format.compression},
                             {"link_types", linkTypes},
                             {"packets", input.frames},
                             {"bytes", input.bytes},
                             {"comments", input.comments}});
        for (const InputProblem& problem : input.warnings) {
            warnings.push_back(problemJson(problem));
        }
        for (const InputProblem& problem : input.errors) {
            errors.push_back(problemJson(problem));
        }
    }
    for (const std::string& text : engine.filterWarnings()) {
        warnings.push_back(Json{{"file", nullptr}, {"offset", nullptr}, {"reason", text}});
    }
    Json linkTypes = Json::array();
    for (const auto& [linkType, frames] : counters.framesByLinkType) {
        linkTypes.push_back(Json{{"link_type", linkTypeName(linkType)}, {"packets", frames}});
    }
    const bool any = counters.frames > 0;
    return Json{{"files", files},
                {"format", containerSummary(analysis.inputs)},
                {"link_types", linkTypes},
                {"filter", engine.filterExpression().empty() ? Json(nullptr) : Json(engine.filterExpression())},
                {"packets", counters.frames},
                {"tcp_packets", counters.tcp},
                {"other_packets",
                 Json{{"filtered_out", counters.filteredOut},
                      {"not_tcp", counters.notTcp},
                      {"ip_fragments", counters.fragments},
                      {"malformed", counters.malformed},
                      {"truncated", counters.truncated},
                      {"unsupported_link_type", counters.unsupportedLink}}},
                {"size_limited_tcp_packets", counters.sizeLimited},
                {"connections", engine.connections().size()},
                {"packet_comments", engine.packetComments().size()},
                {"first_ts", any ? Json(epochSeconds(engine.firstTsNs())) : Json(nullptr)},
                {"last_ts", any ? Json(epochSeconds(engine.lastTsNs())) : Json(nullptr)},
                {"warnings", warnings},
                {"errors", errors}};
}

Json flowJson(const Connection& connection, const std::map<std::string, double>& timeLostMs) {
    const DirectionSummary& client = connection.from(Side::Client);
    const DirectionSummary& server = connection.from(Side::Server);
    const int64_t rttNs = connection.handshakeRttNs();
    Json flow{{"id", connection.id},
              {"client", connection.client.toString()},
              {"server", connection.server.toString()},
              {"first_ts", epochSeconds(connection.firstTsNs)},
              {"last_ts", epochSeconds(connection.lastTsNs)},
              {"packets", perSide(client.packets, server.packets)},
              {"bytes", perSide(client.payloadBytes, server.payloadBytes)},
              {"retransmitted_bytes", perSide(client.retransmittedBytes, server.retransmittedBytes)},
              {"max_bytes_in_flight", perSide(client.maxBytesInFlight, server.maxBytesInFlight)},
              {"state", connectionStateName(connection.state)},
              {"midstream", connection.midstream},
              {"active_closer", activeCloserName(connection)},
              {"reset_by", connection.hasResetBy ? Json(sideName(connection.resetBy)) : Json(nullptr)},
              {"handshake_rtt_ms", rttNs >= 0 ? Json(milliseconds(rttNs)) : Json(nullptr)},
              {"syn_count", connection.synCount},
              {"reused", connection.reusedFrom != kNoConnection ? Json(connection.reusedFrom) : Json(nullptr)}};
    Json lost = Json::object();
    double total = 0;
    for (const auto& [kind, ms] : timeLostMs) {
        lost[kind] = std::round(ms * 1000) / 1000;
        total += ms;
    }
    lost["total"] = std::round(total * 1000) / 1000;
    flow["time_lost_ms"] = lost;
    if (connection.reusedFrom != kNoConnection) {
        flow["reuse"] = Json{{"earlier_closed", connection.reusedEarlierClosed},
                             {"since_earlier_ms", milliseconds(connection.reuseGapNs)}};
    }
    return flow;
}

Json findingJson(const Finding& finding) {
    return Json{{"kind", finding.kind},
                {"severity", severityName(finding.severity)},
                {"flow", finding.connection != kNoConnection ? Json(finding.connection) : Json(nullptr)},
                {"ts", epochSeconds(finding.tsNs)},
                {"duration_ms", finding.durationMs},
                {"frames", finding.frames},
                {"summary", finding.summary},
                {"evidence", Json(finding.evidence)}};
}

Json flowsReportJson(const CaptureAnalysis& analysis, const StraceAlignment* alignment) {
    Json flows = Json::array();
    const auto timeLost = timeLostByFlow(analysis);
    for (const Connection& connection : analysis.engine->connections()) {
        flows.push_back(flowJson(connection, timeLost[connection.id]));
        if (alignment != nullptr) {
            if (Json calls = flowSyscallsJson(*alignment, connection.id); !calls.is_null()) {
                flows.back()["syscalls"] = std::move(calls);
            }
        }
    }
    Json report{{"schema", kReportSchema}, {"capture", captureJson(analysis)}, {"flows", flows}};
    if (alignment != nullptr) {
        report["syscalls"] = syscallsJson(*alignment);
    }
    return report;
}

namespace {

// Delayed-ACK stalls summed per sending endpoint: which program's writes lose the most time.
Json endpointStallsJson(const CaptureAnalysis& analysis) {
    struct Total {
        uint64_t stalls = 0;
        double heldMs = 0;
        uint64_t flows = 0;
    };
    std::map<std::string, Total> totals;
    for (const Finding& finding : analysis.findings) {
        if (finding.kind == "delayed_ack_stall") {
            Total& total = totals[finding.evidence.value("sender", std::string())];
            total.stalls += finding.evidence.value("stalls", uint64_t{0});
            total.heldMs += finding.durationMs;
            ++total.flows;
        }
    }
    std::vector<std::pair<std::string, Total>> sorted(totals.begin(), totals.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second.heldMs > b.second.heldMs; });
    Json endpoints = Json::array();
    for (const auto& [endpoint, total] : sorted) {
        endpoints.push_back(Json{{"sender", endpoint},
                                 {"flows", total.flows},
                                 {"stalls", total.stalls},
                                 {"held_ms", std::round(total.heldMs * 1000) / 1000}});
    }
    return endpoints;
}

}  // namespace

Json analysisReportJson(const CaptureAnalysis& analysis, const StraceAlignment* alignment) {
    Json report = flowsReportJson(analysis, alignment);
    Json findings = Json::array();
    for (const Finding& finding : analysis.findings) {
        findings.push_back(findingJson(finding));
    }
    report["findings"] = findings;
    report["delayed_ack_by_sender"] = endpointStallsJson(analysis);
    return report;
}

Json packetsReportJson(const CaptureAnalysis& analysis, std::optional<uint32_t> flow) {
    const AnalysisEngine& engine = *analysis.engine;
    const PacketIndex& packets = engine.packets();
    const auto& connections = engine.connections();
    Json rows = Json::array();
    for (size_t i = 0; i < packets.size(); ++i) {
        if (flow && packets.connection(i) != *flow) {
            continue;
        }
        const IndexedPacket packet = packets.at(i);
        const Connection& connection = connections[packet.connection];
        const Side sender = packet.fromServer ? Side::Server : Side::Client;
        const RelativeNumbers relative = relativeNumbers(connection, packet);
        Json analysisNames = Json::array();
        for (int bitIndex = 0; bitIndex < kAnalysisFlagCount; ++bitIndex) {
            if (has(packet.analysis, analysisFlagAt(bitIndex))) {
                analysisNames.push_back(analysisFlagName(analysisFlagAt(bitIndex)));
            }
        }
        rows.push_back(Json{{"frame", packet.frame},
                            {"flow", packet.connection},
                            {"ts", epochSeconds(packet.tsNs)},
                            {"src", connection.endpoint(sender).toString()},
                            {"dst", connection.endpoint(otherSide(sender)).toString()},
                            {"flags", tcpFlagsText(packet.tcpFlags)},
                            {"seq", relative.seq},
                            {"ack", relative.ack},
                            {"seq_raw", packet.seq},
                            {"ack_raw", packet.ack},
                            {"len", packet.payloadLength},
                            {"win", packet.window},
                            {"analysis", analysisNames}});
        if (const std::string_view comment = engine.commentOf(packet.frame); !comment.empty()) {
            rows.back()["comment"] = comment;
        }
    }
    return Json{{"schema", kReportSchema}, {"packets", rows}};
}

}  // namespace tcpscope
