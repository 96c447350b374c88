#include "report/json_report.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <sstream>
#include <string_view>
#include <thread>

#include <absl/container/flat_hash_map.h>

#include "decode/packet_decoder.hpp"
#include "engine/worker_threads.hpp"
#include "present/value_format.hpp"
#include "report/finding_evidence.hpp"
#include "report/finding_groups.hpp"
#include "report/finding_summary.hpp"
#include "report/json_report_writer.hpp"
#include "report/placement_json.hpp"
#include "report/process_json.hpp"
#include "report/report_notes.hpp"
#include "report/syscalls_json.hpp"

namespace tcpscope {

namespace {

Json problemJson(const InputProblem& problem) {
    return Json{{"file", problem.file}, {"offset", problem.offset}, {"reason", problem.reason}};
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
        if (input.cutShort) {
            files.back()["cut_short"] =
                Json{{"offset", input.cutShort->recordOffset}, {"bytes_left", input.cutShort->bytesLeft}};
        }
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
                      {"unsupported_link_type", counters.unsupportedLink},
                      {"duplicates", counters.duplicates}}},
                {"size_limited_tcp_packets", counters.sizeLimited},
                {"connections", engine.connections().size()},
                {"packet_comments", engine.packetComments().size()},
                {"first_ts", any ? Json(epochSeconds(engine.timeOrigin(), engine.firstTsNs())) : Json(nullptr)},
                {"last_ts", any ? Json(epochSeconds(engine.timeOrigin(), engine.lastTsNs())) : Json(nullptr)},
                {"warnings", warnings},
                {"errors", errors}};
}

namespace {

// The positions of the findings that have a connection, by connection (finding order within one).
std::vector<uint32_t> findingsByConnection(const FindingList& findings) {
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < findings.size(); ++i) {
        if (findings[i].connection != kNoConnection) {
            order.push_back(i);
        }
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return findings[a].connection < findings[b].connection; });
    return order;
}

// Per connection, the time its findings cost by kind ("delayed_ack_stall" -> ms), summed in
// finding order and listed by kind name; found without a map per connection.
class TimeLostCursor {
public:
    // A cursor for connections from `firstConnection` on; `order` is findingsByConnection(findings).
    TimeLostCursor(const FindingList& findings, const std::vector<uint32_t>& order, uint32_t firstConnection)
        : findings_(findings), order_(order) {
        next_ = static_cast<size_t>(
            std::lower_bound(order_.begin(), order_.end(), firstConnection,
                             [&](uint32_t index, uint32_t wanted) { return findings_[index].connection < wanted; }) -
            order_.begin());
    }

    // The kinds and times of `connection`; connections must be asked in increasing order.
    const std::vector<std::pair<std::string_view, double>>& of(uint32_t connection) {
        lost_.clear();
        while (next_ < order_.size() && findings_[order_[next_]].connection < connection) {
            ++next_;
        }
        for (; next_ < order_.size() && findings_[order_[next_]].connection == connection; ++next_) {
            const Finding& finding = findings_[order_[next_]];
            const std::string_view kind = findingKindName(finding.kind);
            auto slot = std::lower_bound(lost_.begin(), lost_.end(), kind,
                                         [](const auto& entry, std::string_view name) { return entry.first < name; });
            if (slot == lost_.end() || slot->first != kind) {
                slot = lost_.insert(slot, {kind, 0.0});
            }
            slot->second += finding.durationMs;
        }
        return lost_;
    }

private:
    const FindingList& findings_;
    const std::vector<uint32_t>& order_;
    size_t next_ = 0;
    std::vector<std::pair<std::string_view, double>> lost_;
};

double roundedMs(double ms) { return std::round(ms * 1000) / 1000; }

void writePerSide(JsonStreamWriter& out, std::string_view key, uint64_t fromClient, uint64_t fromServer) {
    out.key(key);
    out.beginObject();
    out.field("client_to_server", fromClient);
    out.field("server_to_client", fromServer);
    out.endObject();
}

// key(name) and the endpoint's text, written without a string on the heap (two per flow were a
// tenth of writing the flows).
void writeEndpointField(JsonStreamWriter& out, std::string_view name, const Endpoint& endpoint) {
    std::array<char, Endpoint::kTextCapacity> text{};
    const char* end = endpoint.writeText(text.data());
    out.field(name, std::string_view(text.data(), static_cast<size_t>(end - text.data())));
}

void writeFlow(JsonStreamWriter& out, const Connection& connection, TimeOrigin origin,
               const std::vector<std::pair<std::string_view, double>>& timeLostMs, const StraceAlignment* alignment,
               const ConnectionProcesses& processes) {
    const DirectionSummary& client = connection.from(Side::Client);
    const DirectionSummary& server = connection.from(Side::Server);
    const int64_t rttNs = connection.handshakeRttNs();
    out.beginObject();
    out.field("id", connection.id);
    writeEndpointField(out, "client", connection.client);
    writeEndpointField(out, "server", connection.server);
    out.field("first_ts", epochSeconds(origin, connection.firstTsNs));
    out.field("last_ts", epochSeconds(origin, connection.lastTsNs));
    writePerSide(out, "packets", client.packets, server.packets);
    writePerSide(out, "bytes", client.payloadBytes, server.payloadBytes);
    writePerSide(out, "retransmitted_bytes", client.retransmittedBytes, server.retransmittedBytes);
    writePerSide(out, "max_bytes_in_flight", client.maxBytesInFlight, server.maxBytesInFlight);
    out.field("state", connectionStateName(connection.state));
    out.field("midstream", connection.midstream);
    out.field("active_closer", activeCloserName(connection));
    out.fieldOrNull("reset_by", connection.hasResetBy, sideName(connection.resetBy));
    out.fieldOrNull("handshake_rtt_ms", rttNs >= 0, milliseconds(rttNs));
    out.field("syn_count", connection.synCount);
    out.fieldOrNull("reused", connection.reusedFrom != kNoConnection, connection.reusedFrom);
    out.key("time_lost_ms");
    out.beginObject();
    double total = 0;
    for (const auto& [kind, ms] : timeLostMs) {
        out.field(kind, roundedMs(ms));
        total += ms;
    }
    out.field("total", roundedMs(total));
    out.endObject();
    if (connection.reusedFrom != kNoConnection) {
        out.key("reuse");
        out.beginObject();
        out.field("earlier_closed", connection.reusedEarlierClosed);
        out.field("since_earlier_ms", milliseconds(connection.reuseGapNs));
        out.endObject();
    }
    writeFlowProcessesJson(out, processes, connection.id);
    if (alignment != nullptr) {
        if (const Json calls = flowSyscallsJson(*alignment, connection.id); !calls.is_null()) {
            out.field("syscalls", calls);
        }
    }
    out.endObject();
}

// What the finding cost: wall-clock first, then whom and how long each, then connection-time.
void writeImpact(JsonStreamWriter& out, const FindingImpact& impact) {
    out.key("impact");
    out.beginObject();
    out.field("wall_ms", impact.wallMs);
    out.field("connections", impact.connections);
    out.field("delayed_requests", impact.delayedRequests);
    out.field("p50_ms", impact.p50Ms);
    out.field("p99_ms", impact.p99Ms);
    out.field("max_ms", impact.maxMs);
    out.field("connection_ms", impact.connectionMs);
    out.endObject();
}

void writeFinding(JsonStreamWriter& out, const Finding& finding, const FindingEnrichment& enrichment,
                  TimeOrigin origin) {
    out.beginObject();
    out.field("kind", findingKindName(finding.kind));
    out.field("severity", severityName(finding.severity));
    out.fieldOrNull("flow", finding.connection != kNoConnection, finding.connection);
    out.field("ts", epochSeconds(origin, finding.tsNs));
    out.field("duration_ms", finding.durationMs);
    writeImpact(out, finding.impact);
    out.key("frames");
    out.beginArray();
    for (const uint32_t frame : finding.frames) {
        out.value(frame);
    }
    out.endArray();
    out.field("summary", findingSummary(finding, enrichment));
    if (hasStraceEvidence(enrichment)) {
        out.field("evidence", findingEvidenceJson(finding, enrichment));
    } else {
        out.field("evidence", finding.evidence);
    }
    if (enrichment.placement) {
        out.field("placement", placementJson(*enrichment.placement));  // only with several capture points
    }
    out.endObject();
}

void writeFlowRange(JsonStreamWriter& out, const CaptureAnalysis& analysis, const std::vector<uint32_t>& findingOrder,
                    size_t begin, size_t end, const StraceAlignment* alignment) {
    const ConnectionStore& connections = analysis.engine->connections();
    TimeLostCursor timeLost(analysis.findings, findingOrder, static_cast<uint32_t>(begin));
    for (size_t i = begin; i < end; ++i) {
        writeFlow(out, connections[i], analysis.engine->timeOrigin(), timeLost.of(connections[i].id), alignment,
                  analysis.engine->processes());
    }
}

constexpr size_t kFlowsPerChunk = 4096;
constexpr size_t kFindingsPerChunk = 256;  // a finding's text is a few times a flow's
constexpr size_t kSectionDepth = 2;  // the flows and findings arrays inside the report object

// The chunks of one section shared by this thread and one helper thread: each takes the next chunk
// as it is free (chunks differ in size: a finding's text is a few times another's), and this
// thread appends them in order: straight into the report when it takes the next one to append,
// otherwise through the text of one of kSlots slots. The helper runs at most kSlots chunks ahead
// of what is appended, so a few chunks of text are held at a time. One helper thread serves the
// whole section and the slots keep their writers and text buffers from chunk to chunk.
template <typename WriteRange>
class SharedChunks {
public:
    SharedChunks(JsonStreamWriter& out, size_t count, size_t perChunk, const WriteRange& writeRange)
        : out_(out), count_(count), perChunk_(perChunk), chunks_((count + perChunk - 1) / perChunk),
          writeRange_(writeRange) {
        for (Slot& slot : slots_) {
            slot.writer = std::make_unique<JsonStreamWriter>(slot.text, out);  // reads only out's layout
        }
        helper_ = std::thread([this] { help(); });
    }
    SharedChunks(const SharedChunks&) = delete;
    SharedChunks& operator=(const SharedChunks&) = delete;
    // However the writing ends (a chunk may throw), the helper is told to stop and joined.
    ~SharedChunks() {
        {
            const std::lock_guard lock(mutex_);
            stopped_ = true;
        }
        changed_.notify_all();
        helper_.join();
    }

    void write() {
        writeChunk(out_, 0);  // the first chunk opens the array (no separator before it): never the helper's
        std::unique_lock lock(mutex_);
        ++appended_;
        changed_.notify_all();
        while (appended_ < chunks_) {
            if (error_) {
                std::rethrow_exception(error_);
            }
            Slot& due = slots_[appended_ % kSlots];
            if (due.ready) {
                lock.unlock();
                std::string text = std::move(due.text).str();
                out_.raw(text);
                text.clear();
                due.text.str(std::move(text));  // the slot's next chunk reuses its capacity
                lock.lock();
                due.ready = false;
                ++appended_;
                changed_.notify_all();
            } else if (next_ == appended_) {
                const size_t chunk = next_++;
                lock.unlock();
                writeChunk(out_, chunk);
                lock.lock();
                ++appended_;
                changed_.notify_all();
            } else if (hasRoom()) {
                formatInSlot(lock);
            } else {
                changed_.wait(lock);
            }
        }
    }

private:
    static constexpr size_t kSlots = 4;
    struct Slot {
        std::ostringstream text;
        std::unique_ptr<JsonStreamWriter> writer;
        bool ready = false;
    };

    [[nodiscard]] bool hasRoom() const { return next_ < chunks_ && next_ < appended_ + kSlots; }
    void writeChunk(JsonStreamWriter& writer, size_t chunk) {
        const size_t begin = chunk * perChunk_;
        writeRange_(writer, begin, std::min(begin + perChunk_, count_));
    }
    // Takes the next chunk and formats it into its slot; `lock` is held before and after.
    void formatInSlot(std::unique_lock<std::mutex>& lock) {
        const size_t chunk = next_++;
        Slot& slot = slots_[chunk % kSlots];
        lock.unlock();
        slot.writer->continueArray(kSectionDepth);
        writeChunk(*slot.writer, chunk);
        slot.writer->flush();
        lock.lock();
        slot.ready = true;
        changed_.notify_all();
    }
    void help() {
        std::unique_lock lock(mutex_);
        while (true) {
            changed_.wait(lock, [this] { return stopped_ || error_ || next_ >= chunks_ || hasRoom(); });
            if (stopped_ || error_ || next_ >= chunks_) {
                return;
            }
            try {
                formatInSlot(lock);
            } catch (...) {
                if (!lock.owns_lock()) {
                    lock.lock();
                }
                error_ = std::current_exception();
                changed_.notify_all();
                return;
            }
        }
    }

    JsonStreamWriter& out_;
    size_t count_;
    size_t perChunk_;
    size_t chunks_;
    const WriteRange& writeRange_;
    std::array<Slot, kSlots> slots_;
    std::mutex mutex_;
    std::condition_variable changed_;
    size_t next_ = 1;      // chunks taken (the first is this thread's from the start)
    size_t appended_ = 0;  // chunks appended to out_, in order
    bool stopped_ = false;
    std::exception_ptr error_;
    std::thread helper_;  // last: started once everything it reads is made
};

// Items [0, count) of the array open at kSectionDepth, each range written by
// writeRange(writer, begin, end). Formatting them is most of the report's time, so with a second
// core the chunks of `perChunk` items are shared with a helper thread (SharedChunks): the same text.
template <typename WriteRange>
void writeInChunks(JsonStreamWriter& out, size_t count, size_t perChunk, const WriteRange& writeRange) {
    if (count <= perChunk || !secondThreadAllowed()) {
        writeRange(out, 0, count);
        return;
    }
    SharedChunks<WriteRange>(out, count, perChunk, writeRange).write();
}

// The flows, in id order.
void writeFlows(JsonStreamWriter& out, const CaptureAnalysis& analysis, const StraceAlignment* alignment) {
    const size_t count = analysis.engine->connections().size();
    const std::vector<uint32_t> findingOrder = findingsByConnection(analysis.findings);
    // With strace logs each flow also reads the alignment: kept on one thread.
    if (alignment != nullptr) {
        writeFlowRange(out, analysis, findingOrder, 0, count, alignment);
        return;
    }
    writeInChunks(out, count, kFlowsPerChunk, [&](JsonStreamWriter& writer, size_t begin, size_t end) {
        writeFlowRange(writer, analysis, findingOrder, begin, end, nullptr);
    });
}

// What the delayed_ack_by_sender section reads of one delayed-ACK finding: the endpoint that sent
// the held segments, and how many stalls it had.
struct SenderStalls {
    std::string sender;
    uint64_t stalls = 0;
};

SenderStalls senderStallsOf(const Finding& finding, const ConnectionStore& connections) {
    std::string sender;
    if (finding.waitingSide && finding.connection < connections.size()) {
        sender = connections[finding.connection].endpoint(*finding.waitingSide).toString();
    }
    return {std::move(sender), finding.totalSpans};
}

bool isDelayedAckStall(const Finding& finding) {
    return finding.kind == FindingKind::DelayedAckStall;
}

// The findings, each completed as it is written (CaptureAnalysis::completeFinding); what the
// delayed-ACK ones say of their sender is kept in `senders` (by finding index) for the summary
// after them, so that a finding's evidence is not needed once it is written.
void writeFindings(JsonStreamWriter& out, const CaptureAnalysis& analysis, std::vector<SenderStalls>& senders) {
    senders.resize(analysis.findings.size());
    writeInChunks(out, analysis.findings.size(), kFindingsPerChunk,
                  [&](JsonStreamWriter& writer, size_t begin, size_t end) {
                      Finding described;
                      for (size_t i = begin; i < end; ++i) {
                          const Finding& finding = analysis.completeFinding(i, described);
                          writeFinding(writer, finding, analysis.enrichments.of(finding.id),
                                       analysis.engine->timeOrigin());
                          if (isDelayedAckStall(finding)) {
                              senders[i] = senderStallsOf(finding, analysis.engine->connections());
                          }
                      }
                  });
}

// Delayed-ACK stalls summed per sending endpoint: which program's writes lose the most time.
// Written as it is summed up (no tree); `senders` is what writeFindings() kept.
void writeEndpointStalls(JsonStreamWriter& out, const FindingList& findings, const std::vector<SenderStalls>& senders) {
    struct Total {
        std::string_view sender;
        uint64_t stalls = 0;
        double heldMs = 0;
        uint64_t flows = 0;
    };
    std::vector<Total> totals;
    absl::flat_hash_map<std::string_view, size_t> totalOf;  // sender -> index in totals
    for (size_t i = 0; i < findings.size(); ++i) {
        if (!isDelayedAckStall(findings[i])) {
            continue;
        }
        const auto [slot, isNew] = totalOf.try_emplace(senders[i].sender, totals.size());
        if (isNew) {
            totals.push_back(Total{senders[i].sender});
        }
        Total& total = totals[slot->second];
        total.stalls += senders[i].stalls;
        total.heldMs += findings[i].durationMs;
        ++total.flows;
    }
    // The most time held first; equal times by sender name.
    std::sort(totals.begin(), totals.end(), [](const Total& a, const Total& b) {
        return a.heldMs != b.heldMs ? a.heldMs > b.heldMs : a.sender < b.sender;
    });
    out.key("delayed_ack_by_sender");
    out.beginArray();
    for (const Total& total : totals) {
        out.beginObject();
        out.field("sender", total.sender);
        out.field("flows", total.flows);
        out.field("stalls", total.stalls);
        out.field("held_ms", roundedMs(total.heldMs));
        out.endObject();
    }
    out.endArray();
}

// The findings by cause and endpoint pair (groupFindings), each with the indexes of its findings.
void writeFindingGroups(JsonStreamWriter& out, const CaptureAnalysis& analysis) {
    out.key("finding_groups");
    out.beginArray();
    for (const FindingGroup& group : groupFindings(analysis)) {
        out.beginObject();
        out.field("kind", findingKindName(group.kind));
        out.field("severity", severityName(group.severity));
        out.fieldOrNull("client", !group.client.empty(), group.client);
        out.fieldOrNull("server", !group.server.empty(), group.server);
        out.key("findings");
        out.beginArray();
        for (const size_t index : group.findings) {
            out.value(static_cast<uint64_t>(index));
        }
        out.endArray();
        out.field("duration_ms", roundedMs(group.durationMs));
        out.field("wall_ms", group.wallMs);
        out.field("connections", group.connections);
        out.field("delayed_requests", group.delayedRequests);
        out.field("shortest_ms", roundedMs(group.shortestMs));
        out.field("longest_ms", roundedMs(group.longestMs));
        out.endObject();
    }
    out.endArray();
}

// schema, capture, flows and (with strace logs) syscalls: the start of both the flows and the
// analyze report; the caller closes the object.
void writeFlowsSections(JsonStreamWriter& out, const CaptureAnalysis& analysis, const StraceAlignment* alignment,
                        const Json& captureMembers = Json::object(), Json sections = Json::object()) {
    out.beginObject();
    out.field("schema", kReportSchema);
    if (captureMembers.empty()) {
        out.field("capture", captureJson(analysis));
    } else {
        Json capture = captureJson(analysis);
        for (const auto& [name, member] : captureMembers.items()) {
            capture[name] = member;
        }
        out.field("capture", capture);
    }
    for (const auto& [name, section] : sections.items()) {
        out.field(name, section);
    }
    sections = Json::object();  // written: the incidents of a large capture are not held through the rest
    out.key("flows");
    out.beginArray();
    writeFlows(out, analysis, alignment);
    out.endArray();
    if (alignment != nullptr) {
        out.field("syscalls", syscallsJson(*alignment));
    }
}

template <typename Write>
Json parsedReport(const Write& write) {
    std::ostringstream text;
    write(text);
    return Json::parse(text.str());
}

}  // namespace

void writeFlowsReportJson(std::ostream& out, const CaptureAnalysis& analysis, const StraceAlignment* alignment,
                          Json sections) {
    JsonStreamWriter writer(out, 2);
    writeFlowsSections(writer, analysis, alignment, Json::object(), std::move(sections));
    writer.endObject();
}

void writeAnalysisReportJson(std::ostream& out, const CaptureAnalysis& analysis, const StraceAlignment* alignment) {
    JsonStreamWriter writer(out, 2);
    writeAnalysisReportJson(writer, analysis, alignment, Json::object());
}

namespace {

void writeAnalysisSections(JsonStreamWriter& writer, const CaptureAnalysis& analysis, const StraceAlignment* alignment,
                           const Json& captureMembers, Json sections) {
    writeFlowsSections(writer, analysis, alignment, captureMembers, std::move(sections));
    writer.key("findings");
    writer.beginArray();
    std::vector<SenderStalls> senders;
    writeFindings(writer, analysis, senders);
    writer.endArray();
    writeEndpointStalls(writer, analysis.findings, senders);
    writeFindingGroups(writer, analysis);
    writeNotesJson(writer, analysis);
    writer.endObject();
}

}  // namespace

void writeAnalysisReportJson(JsonStreamWriter& writer, const CaptureAnalysis& analysis,
                             const StraceAlignment* alignment, const Json& captureMembers) {
    writeAnalysisSections(writer, analysis, alignment, captureMembers, Json::object());
}

void writeAnalysisReportJson(std::ostream& out, const CaptureAnalysis& analysis, const StraceAlignment* alignment,
                             Json sections) {
    JsonStreamWriter writer(out, 2);
    writeAnalysisSections(writer, analysis, alignment, Json::object(), std::move(sections));
}

void writePacketsReportJson(std::ostream& out, const CaptureAnalysis& analysis, std::optional<uint32_t> flow,
                            const PacketSightingsFn& seenAt, const PacketSelectionFn& selected) {
    const AnalysisEngine& engine = *analysis.engine;
    const PacketIndex& packets = engine.packets();
    const auto& connections = engine.connections();
    JsonStreamWriter writer(out, 1);
    writer.beginObject();
    writer.field("schema", kReportSchema);
    writer.key("packets");
    writer.beginArray();
    for (size_t i = 0; i < packets.size(); ++i) {
        if ((flow && packets.connection(i) != *flow) || (selected && !selected(i))) {
            continue;
        }
        const IndexedPacket packet = packets.at(i);
        const Connection& connection = connections[packet.connection];
        const Side sender = packet.fromServer ? Side::Server : Side::Client;
        const RelativeNumbers relative = relativeNumbers(connection, packet);
        writer.beginObject();
        writer.field("frame", packet.frame);
        writer.field("flow", packet.connection);
        writer.field("ts", epochSeconds(engine.timeOrigin(), packet.tsNs));
        writer.field("src", connection.endpoint(sender).toString());
        writer.field("dst", connection.endpoint(otherSide(sender)).toString());
        writer.field("flags", tcpFlagsText(packet.tcpFlags));
        writer.field("seq", relative.seq);
        writer.field("ack", relative.ack);
        writer.field("seq_raw", packet.seq);
        writer.field("ack_raw", packet.ack);
        writer.field("len", packet.payloadLength);
        writer.field("win", uint32_t{packet.window});
        writer.key("analysis");
        writer.beginArray();
        for (int bitIndex = 0; bitIndex < kAnalysisFlagCount; ++bitIndex) {
            if (has(packet.analysis, analysisFlagAt(bitIndex))) {
                writer.value(analysisFlagName(analysisFlagAt(bitIndex)));
            }
        }
        writer.endArray();
        if (const std::string_view comment = engine.commentOf(packet.frame); !comment.empty()) {
            writer.field("comment", comment);
        }
        if (seenAt) {
            writer.key("seen_at");
            writer.beginArray();
            for (const PacketSighting& sighting : seenAt(packet.frame)) {
                writer.beginObject();
                writer.field("point", sighting.point);
                writer.field("ts", epochSeconds(engine.timeOrigin(), sighting.tsNs));
                writer.endObject();
            }
            writer.endArray();
        }
        writer.endObject();
    }
    writer.endArray();
    writer.endObject();
}

Json analysisReportJson(const CaptureAnalysis& analysis, const StraceAlignment* alignment) {
    return parsedReport([&](std::ostream& out) { writeAnalysisReportJson(out, analysis, alignment); });
}


}  // namespace tcpscope
