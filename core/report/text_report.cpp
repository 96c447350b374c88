#include "report/text_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "decode/packet_decoder.hpp"
#include "present/cut_short.hpp"
#include "present/process_label.hpp"
#include "present/repeated_problems.hpp"
#include "present/value_format.hpp"
#include "report/finding_groups.hpp"
#include "report/finding_summary.hpp"
#include "report/time_lost.hpp"
#include "text/display_text.hpp"

namespace tcpscope {

namespace {

std::string analysisText(AnalysisFlags flags) {
    std::string text;
    for (int bitIndex = 0; bitIndex < kAnalysisFlagCount; ++bitIndex) {
        const AnalysisFlag flag = analysisFlagAt(bitIndex);
        // Wireshark lists fast and spurious retransmissions under "retransmission" too; one name is enough here.
        if (flag == AnalysisFlag::Retransmission &&
            (has(flags, AnalysisFlag::FastRetransmission) || has(flags, AnalysisFlag::SpuriousRetransmission))) {
            continue;
        }
        if (has(flags, flag)) {
            text += text.empty() ? "[" : ", ";
            text += analysisFlagName(flag);
        }
    }
    return text.empty() ? text : text + "]";
}

void writeProblems(std::ostream& out, const char* label, const std::vector<InputProblem>& problems) {
    for (const ProblemGroup& group : groupRepeatedProblems(problems)) {
        fmt::print(out, "  {}: {}\n", label, describeProblemGroup(group));
    }
}

}  // namespace

void writeCaptureText(std::ostream& out, const CaptureAnalysis& analysis) {
    const AnalysisEngine& engine = *analysis.engine;
    const FrameCounters& counters = engine.counters();
    fmt::print(out, "Capture\n");
    for (const InputSummary& input : analysis.inputs) {
        std::string linkTypes;
        for (uint32_t linkType : input.linkTypes) {
            linkTypes += (linkTypes.empty() ? "" : ", ") + linkTypeName(linkType);
        }
        const std::string compression =
            input.format.compression == "none" ? std::string() : ", " + input.format.compression + " compressed";
        fmt::print(out, "  {}: {}{}, {}, {} packets\n", displayText(input.path, LineBreaks::Spaces),
                   input.format.container, compression, linkTypes.empty() ? "no packets" : linkTypes, input.frames);
    }
    if (!engine.filterExpression().empty()) {
        fmt::print(out, "  filter: {} ({} packets did not match)\n", engine.filterExpression(), counters.filteredOut);
    }
    fmt::print(out, "  {} packets, {} TCP ({} cut by the snapshot length), {} connections\n", counters.frames,
               counters.tcp, counters.sizeLimited, engine.connections().size());
    const uint64_t skipped = counters.notTcp + counters.fragments + counters.malformed + counters.truncated +
                             counters.unsupportedLink;
    if (skipped > 0) {
        fmt::print(out, "  not analysed: {} other protocols, {} IP fragments, {} malformed, {} truncated, {} unsupported link type\n",
                   counters.notTcp, counters.fragments, counters.malformed, counters.truncated, counters.unsupportedLink);
    }
    if (counters.packetTooBig > 0) {
        fmt::print(out, "  {} of the other protocols' packets are ICMP \"too big\" messages about TCP segments (read for "
                        "path MTU)\n",
                   counters.packetTooBig);
    }
    if (counters.duplicates > 0) {
        fmt::print(out, "  {} TCP packets held twice by the capture, left out of the analysis\n", counters.duplicates);
    }
    if (counters.frames > 0) {
        fmt::print(out, "  from {} to {} UTC ({:.3f} s)\n", utcTimestamp(engine.timeOrigin(), engine.firstTsNs()),
                   utcTimestamp(engine.timeOrigin(), engine.lastTsNs()),
                   static_cast<double>(engine.lastTsNs() - engine.firstTsNs()) / 1e9);
    }
    for (const InputSummary& input : analysis.inputs) {
        if (input.cutShort) {
            fmt::print(out, "  cut short: {}\n", cutShortText(input));
        }
    }
    for (const InputSummary& input : analysis.inputs) {
        writeProblems(out, "warning", input.warnings);
        writeProblems(out, "error", input.errors);
    }
    for (const std::string& text : engine.filterWarnings()) {
        fmt::print(out, "  warning: {}\n", text);
    }
}

void writeFlowsText(std::ostream& out, const CaptureAnalysis& analysis) {
    const auto& connections = analysis.engine->connections();
    fmt::print(out, "Connections ({})\n", connections.size());
    if (connections.empty()) {
        return;
    }
    fmt::print(out, "  {:>5}  {:<24} {:<24} {:<12} {:<7} {:>15} {:>19} {:>10} {:>9} {:>10}  {}\n", "id", "client",
               "server", "state", "closer", "packets c>s/s>c", "bytes c>s/s>c", "duration", "rtt ms", "lost ms", "notes");
    const auto timeLost = timeLostByFlow(analysis);
    for (const Connection& connection : connections) {
        const DirectionSummary& client = connection.from(Side::Client);
        const DirectionSummary& server = connection.from(Side::Server);
        const int64_t rttNs = connection.handshakeRttNs();
        std::string notes;
        if (connection.midstream) {
            notes += "started before capture; ";
        }
        if (connection.hasResetBy) {
            notes += fmt::format("reset by {}; ", sideName(connection.resetBy));
        }
        if (connection.reusedFrom != kNoConnection) {
            notes += fmt::format("reuses tuple of #{} ({} {:.1f} ms before); ", connection.reusedFrom,
                                 connection.reusedEarlierClosed ? "closed" : "last seen",
                                 milliseconds(connection.reuseGapNs));
        }
        if (const std::string processes = connectionProcessesLabel(analysis.engine->processes(), connection.id);
            !processes.empty()) {
            notes += "process: " + processes + "; ";
        }
        if (!notes.empty()) {
            notes.resize(notes.size() - 2);
        }
        const double lostMs = totalMs(timeLost[connection.id]);
        fmt::print(out, "  {:>5}  {:<24} {:<24} {:<12} {:<7} {:>15} {:>19} {:>9.3f}s {:>9} {:>10}  {}\n", connection.id,
                   connection.client.toString(), connection.server.toString(), connectionStateName(connection.state),
                   activeCloserName(connection), fmt::format("{}/{}", client.packets, server.packets),
                   fmt::format("{}/{}", client.payloadBytes, server.payloadBytes),
                   static_cast<double>(connection.lastTsNs - connection.firstTsNs) / 1e9,
                   rttNs >= 0 ? fmt::format("{:.3f}", milliseconds(rttNs)) : std::string("-"),
                   lostMs > 0 ? fmt::format("{:.1f}", lostMs) : std::string("-"), notes);
    }
}

void writePacketsText(std::ostream& out, const CaptureAnalysis& analysis, std::optional<uint32_t> flow,
                      const PacketSightingsFn& seenAt, const PacketSelectionFn& selected) {
    const AnalysisEngine& engine = *analysis.engine;
    const PacketIndex& packets = engine.packets();
    const auto& connections = engine.connections();
    const int64_t startNs = engine.firstTsNs();
    for (size_t i = 0; i < packets.size(); ++i) {
        if ((flow && packets.connection(i) != *flow) || (selected && !selected(i))) {
            continue;
        }
        const IndexedPacket packet = packets.at(i);
        const Connection& connection = connections[packet.connection];
        const Side sender = packet.fromServer ? Side::Server : Side::Client;
        const RelativeNumbers relative = relativeNumbers(connection, packet);
        fmt::print(out, "{:>7} {:>12.6f} #{:<4} {} > {} [{}] seq={} ack={} win={} len={} {}\n", packet.frame,
                   static_cast<double>(packet.tsNs - startNs) / 1e9, packet.connection,
                   connection.endpoint(sender).toString(), connection.endpoint(otherSide(sender)).toString(),
                   tcpFlagsText(packet.tcpFlags), relative.seq, relative.ack, packet.window, packet.payloadLength,
                   analysisText(packet.analysis));
        if (const std::string_view comment = engine.commentOf(packet.frame); !comment.empty()) {
            fmt::print(out, "        comment: {}\n", displayText(comment, LineBreaks::Spaces));
        }
        if (seenAt) {
            std::string where;
            for (const PacketSighting& sighting : seenAt(packet.frame)) {
                where += fmt::format("{}{} {:.6f}", where.empty() ? "" : ", ", sighting.point,
                                     static_cast<double>(sighting.tsNs - startNs) / 1e9);
            }
            fmt::print(out, "        seen at: {}\n", where.empty() ? "no point (or a segment a point holds twice)" : where);
        }
    }
}

void writeAnalysisText(std::ostream& out, const CaptureAnalysis& analysis) {
    writeCaptureText(out, analysis);
    fmt::print(out, "\n");
    // One line per cause and endpoint pair: a group of one finding reads as the finding itself.
    const FindingGroups groups = groupFindings(analysis);
    fmt::print(out, "Findings ({}{}), most severe first, then by time lost\n", analysis.findings.size(),
               groups.size() < analysis.findings.size()
                   ? fmt::format(", in {} {} by cause and endpoint pair", groups.size(),
                                 groups.size() == 1 ? "group" : "groups")
                   : std::string());
    if (groups.empty()) {
        fmt::print(out, "  none\n");
    }
    for (const FindingGroup& group : groups) {
        const Finding& longest = analysis.findings[group.findings.front()];
        if (group.findings.size() == 1) {
            const std::string flow = longest.connection != kNoConnection ? fmt::format("#{}", longest.connection) : "-";
            fmt::print(out, "  {:<7} {:<20} {:>9} {:>10.1f} ms  {}\n", severityName(longest.severity),
                       findingKindName(longest.kind), flow, shownMs(longest), findingSummary(longest, analysis.enrichments.of(longest.id)));
            continue;
        }
        // The group's wall-clock time leads: its findings' times added up would be connection-time.
        fmt::print(out,
                   "  {:<7} {:<20} {:>9} {:>10.1f} ms  {} -> {}: {} connections, {:.1f}-{:.1f} ms each, {:.1f} ms "
                   "of connection-time; the longest, #{}: {}\n",
                   severityName(group.severity), findingKindName(group.kind),
                   fmt::format("{} flows", group.findings.size()), group.wallMs, group.client, group.server,
                   group.findings.size(), group.shortestMs, group.longestMs, group.durationMs, longest.connection,
                   findingSummary(longest, analysis.enrichments.of(longest.id)));
    }
    fmt::print(out, "\n");
    writeFlowsText(out, analysis);
}

}  // namespace tcpscope
