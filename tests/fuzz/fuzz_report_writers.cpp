// Fuzz target for every output format, fed from a fuzzed capture and a fuzzed strace log: the
// analysis report, the flows and the packets as text and JSON, the system calls, the notes, the
// Mermaid sequence diagram, the incident report as Markdown and HTML, the records (NDJSON, what
// export writes to a folder or ClickHouse) and the live capture's finding events. Each output must
// be valid UTF-8, and each JSON one must parse (nlohmann's parser is strict about both): a string
// from an input (a packet or section comment, a strace argument) that reaches a writer unrepaired
// aborts the run. Input: a 2-byte big-endian length, that many bytes of capture file (pcap or
// pcapng, as the capture_reader target reads them), then the strace log's text (none if empty).
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "align/stall_confirmation.hpp"
#include "align/strace_alignment.hpp"
#include "align/strace_fit.hpp"
#include "analysis/capture_analysis.hpp"
#include "capture/capture_error.hpp"
#include "live/live_report.hpp"
#include "present/sequence_diagram.hpp"
#include "present/sequence_syscalls.hpp"
#include "records/analysis_records.hpp"
#include "records/record_sink.hpp"
#include "report/incident_report.hpp"
#include "report/json_report.hpp"
#include "report/mermaid_sequence.hpp"
#include "report/report_notes.hpp"
#include "report/syscalls_text.hpp"
#include "report/text_report.hpp"
#include "strace/strace_reader.hpp"
#include "text/json_text.hpp"
#include "text/valid_utf8.hpp"

namespace {

using namespace tcpscope;

[[noreturn]] void broken(const char* what, std::string_view output) {
    std::fprintf(stderr, "fuzz_report_writers: %s (%zu bytes of output)\n", what, output.size());
    std::abort();
}

void checkText(const char* what, std::string_view output) {
    if (!isValidUtf8(output)) {
        broken(what, output);
    }
}

void checkJson(const char* what, std::string_view output) {
    checkText(what, output);
    if (!nlohmann::json::accept(output)) {
        broken(what, output);
    }
}

// The records, kept as export would write them: one line each.
class LineSink final : public RecordSink {
public:
    void write(RecordType /*type*/, int64_t /*tsNs*/, std::string_view line) override {
        checkJson("a record line", line);
    }
};

// The capture as a file the loader can open by name, with no disk write.
class MemoryFile {
public:
    explicit MemoryFile(std::string_view bytes) : fd_(memfd_create("fuzz-capture", MFD_CLOEXEC)) {
        if (fd_ < 0 || ::write(fd_, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
            std::perror("memfd");
            std::abort();
        }
    }
    ~MemoryFile() { ::close(fd_); }
    MemoryFile(const MemoryFile&) = delete;
    MemoryFile& operator=(const MemoryFile&) = delete;
    [[nodiscard]] std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

private:
    int fd_;
};

std::optional<StraceAlignment> alignLog(std::string_view text, CaptureAnalysis& analysis) {
    if (text.empty()) {
        return std::nullopt;
    }
    std::vector<AlignedLog> logs(1);
    logs.front().files = {"fuzz\xff.strace"};  // a file name that is not UTF-8 either
    logs.front().log = parseStraceText(text);
    StraceAlignment alignment = alignStraceLogs(std::move(logs), analysis, {});
    if (const std::optional<StraceMismatch> mismatch = findStraceMismatch(alignment, *analysis.engine)) {
        checkText("a strace mismatch", mismatch->reason);
    }
    confirmFindingsWithSyscalls(analysis, alignment);
    return alignment;
}

void writeEveryFormat(CaptureAnalysis& analysis, const StraceAlignment* alignment) {
    {
        std::ostringstream out;
        writeAnalysisReportJson(out, analysis, alignment);
        checkJson("analyze --format json", out.str());
    }
    {
        std::ostringstream out;
        writeAnalysisText(out, analysis);
        if (alignment != nullptr) {
            writeSyscallsText(out, *alignment);
        }
        writeNotesText(out, analysis);
        checkText("analyze", out.str());
    }
    {
        std::ostringstream out;
        writeFlowsReportJson(out, analysis, alignment, Json::object());
        checkJson("flows --format json", out.str());
        std::ostringstream text;
        writeFlowsText(text, analysis);
        checkText("flows", text.str());
    }
    {
        std::ostringstream out;
        writePacketsReportJson(out, analysis, std::nullopt, {});
        checkJson("packets --format json", out.str());
        std::ostringstream text;
        writePacketsText(text, analysis, std::nullopt, {});
        checkText("packets", text.str());
    }
    const size_t flows = analysis.engine->connections().size();
    if (flows > 0) {
        const SequenceDiagram diagram =
            flows > 1 ? SequenceDiagram::ofProxy(analysis, 0, 1) : SequenceDiagram::ofConnection(analysis, 0);
        std::vector<DiagramSyscall> syscalls;
        MermaidOptions options;
        options.maxArrows = 200;
        if (alignment != nullptr) {
            syscalls = diagramSyscalls(*alignment, diagram);
            options.syscalls = &syscalls;
        }
        checkText("mermaid", mermaidSequence(diagram, options));
    }
    IncidentReportInput report;
    report.captureName = "fuzz\xc3(.pcap";
    report.alignment = alignment;
    {
        std::ostringstream out;
        writeIncidentMarkdown(out, analysis, report);
        checkText("report.md", out.str());
        std::ostringstream html;
        writeIncidentHtml(html, analysis, report);
        checkText("report.html", html.str());
    }
    LineSink records;
    writeAnalysisRecords(RecordSource{"fuzz-host", "0123456789abcdef", "fuzz", analysis.engine->timeOrigin()}, analysis,
                         records);
    for (const Finding& finding : analysis.findings) {
        checkJson("a live finding event", jsonText(liveFindingEventJson(finding, "found")));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) {
        return 0;
    }
    const size_t captureBytes = std::min<size_t>((size_t{data[0]} << 8) | data[1], size - 2);
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 2, size - 2);
    const MemoryFile capture(bytes.substr(0, captureBytes));
    AnalysisOptions options;
    options.engine.keepPacketIndex = true;
    CaptureAnalysis analysis;
    try {
        analysis = analyzeCaptures({capture.path()}, options);
    } catch (const CaptureError& error) {
        checkText("a capture error", error.what());
        return 0;
    }
    const std::optional<StraceAlignment> alignment = alignLog(bytes.substr(captureBytes), analysis);
    writeEveryFormat(analysis, alignment ? &*alignment : nullptr);
    return 0;
}
