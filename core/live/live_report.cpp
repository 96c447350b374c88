#include "live/live_report.hpp"

#include <cmath>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "decode/packet_decoder.hpp"

namespace tcpscope {

namespace {

// Epoch seconds with microsecond fractions, as every time in the tcpscope/1 report.
double epochSeconds(int64_t tsNs) { return std::round(static_cast<double>(tsNs) / 1e3) / 1e6; }

std::string flagsText(const CaptureInterface& interface) {
    std::string text;
    auto add = [&text](bool set, const char* name) {
        if (set) {
            text += text.empty() ? name : std::string(",") + name;
        }
    };
    add(interface.up, "up");
    add(interface.running, "running");
    add(interface.loopback, "loopback");
    add(interface.wireless, "wireless");
    return text.empty() ? "down" : text;
}

}  // namespace

nlohmann::ordered_json liveCaptureJson(const LiveCaptureSummary& summary) {
    nlohmann::ordered_json live;
    live["interface"] = summary.source.device;
    live["capture_filter"] = summary.source.filter.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(summary.source.filter);
    live["snaplen"] = summary.source.snapLength;
    live["link_type"] = summary.source.linkType != 0 ? nlohmann::ordered_json(linkTypeName(summary.source.linkType))
                                                     : nlohmann::ordered_json();
    live["timestamps"] = summary.source.nanosecond ? "ns" : "us";
    live["via_helper"] = summary.source.viaHelper;
    live["started"] = epochSeconds(summary.startNs);
    live["ended"] = epochSeconds(summary.endNs);
    live["packets_captured"] = summary.kernel.captured;
    live["dropped_by_kernel"] = summary.kernel.droppedByKernel;
    live["dropped_by_interface"] = summary.kernel.droppedByInterface;
    live["not_analysed"] = summary.analysisDropped;
    live["analysis_queue_high_water"] = summary.queueHighWater;
    live["packets_written"] = summary.written;
    live["files"] = summary.files;
    live["files_deleted"] = summary.filesDeleted;
    live["error"] = summary.error.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(summary.error);
    live["packet_index_bytes_in_memory"] = summary.indexBytesInMemory;
    live["packet_index_bytes_on_disk"] = summary.indexBytesOnDisk;
    live["packet_index_problem"] =
        summary.indexProblem.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(summary.indexProblem);
    live["connections_retired"] = summary.connectionsRetired;
    live["connection_bytes"] = summary.connectionBytes;
    live["analysis_cpu_s"] = static_cast<double>(summary.analysisCpuNs) / 1e9;
    return live;
}

void writeLiveCaptureText(std::ostream& out, const LiveCaptureSummary& summary) {
    const double seconds = static_cast<double>(summary.endNs - summary.startNs) / 1e9;
    fmt::print(out, "Live capture on {}{} for {:.1f} s{}\n", summary.source.device,
               summary.source.filter.empty() ? "" : fmt::format(" (filter '{}')", summary.source.filter), seconds,
               summary.source.viaHelper ? ", by tcpscope-capture" : "");
    fmt::print(out, "  {} packets captured, {} dropped by the kernel, {} dropped by the interface, {} not analysed\n",
               summary.kernel.captured, summary.kernel.droppedByKernel, summary.kernel.droppedByInterface,
               summary.analysisDropped);
    fmt::print(out, "  analysis: {:.2f} s of CPU on its thread\n", static_cast<double>(summary.analysisCpuNs) / 1e9);
    if (!summary.files.empty()) {
        fmt::print(out, "  {} packets written to {}{}\n", summary.written, fmt::join(summary.files, ", "),
                   summary.filesDeleted > 0 ? fmt::format(" ({} older files deleted)", summary.filesDeleted) : "");
    }
    if (!summary.error.empty()) {
        fmt::print(out, "  stopped by an error: {}\n", summary.error);
    }
    fmt::print(out, "  packet index: {:.1f} MB in memory, {:.1f} MB moved to disk{}\n",
               static_cast<double>(summary.indexBytesInMemory) / 1e6, static_cast<double>(summary.indexBytesOnDisk) / 1e6,
               summary.indexProblem.empty() ? "" : fmt::format(" ({})", summary.indexProblem));
    fmt::print(out, "  connections: {} retired (closed or idle for long: kept as records, state released), {:.1f} MB\n",
               summary.connectionsRetired, static_cast<double>(summary.connectionBytes) / 1e6);
    fmt::print(out, "\n");
}

nlohmann::ordered_json liveFindingEventJson(const Finding& finding, std::string_view eventName) {
    nlohmann::ordered_json event;
    event["event"] = eventName;
    event["id"] = finding.id;
    event["kind"] = std::string(findingKindName(finding.kind));
    event["severity"] = severityName(finding.severity);
    event["flow"] = finding.connection != kNoConnection ? nlohmann::ordered_json(finding.connection)
                                                        : nlohmann::ordered_json();
    event["ts"] = epochSeconds(finding.tsNs);
    event["duration_ms"] = finding.durationMs;
    event["delayed_requests"] = finding.impact.delayedRequests;
    event["wall_ms"] = finding.impact.wallMs;
    event["ongoing"] = finding.ongoing;
    event["provisional"] = finding.provisional;
    event["summary"] = finding.summary;
    event["frames"] = finding.frames;
    return event;
}

nlohmann::ordered_json interfacesJson(const std::vector<CaptureInterface>& interfaces) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const CaptureInterface& interface : interfaces) {
        list.push_back({{"name", interface.name},
                        {"description", interface.description},
                        {"addresses", interface.addresses},
                        {"up", interface.up},
                        {"running", interface.running},
                        {"loopback", interface.loopback},
                        {"wireless", interface.wireless},
                        {"any", interface.any}});
    }
    return {{"interfaces", list}};
}

void writeInterfacesText(std::ostream& out, const std::vector<CaptureInterface>& interfaces) {
    for (const CaptureInterface& interface : interfaces) {
        fmt::print(out, "{:<16} {:<26} {}{}\n", interface.name, flagsText(interface), fmt::join(interface.addresses, " "),
                   interface.description.empty() ? "" : fmt::format("  ({})", interface.description));
    }
}

}  // namespace tcpscope
