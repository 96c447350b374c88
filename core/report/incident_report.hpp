#pragma once
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"
#include "report/sequence_diagram.hpp"

namespace tcpscope {

/// Arrows [first, first + count) of a ladder: the part an incident report draws.
struct LadderWindow {
    size_t first = 0;
    size_t count = 0;
};

/// A connection (or a proxy pair) whose ladder the report shows, and why.
struct ReportLadder {
    std::vector<uint32_t> flows;  ///< one flow, or the client side and the server side of a proxy
    std::vector<uint32_t> findings;  ///< ids of the findings on these flows that cost time
    double lostMs = 0;
};

/// A picture written next to the report, by whoever renders it (the GUI's export code).
struct ReportImage {
    std::string title;       ///< "Timeline", "Sequence diagram of flows #0 and #1"
    std::string file;        ///< relative to the report, e.g. "flow-0-sequence.png"
    std::string vectorFile;  ///< the same as SVG, or empty
};

/// What the report shows besides the analysis: the capture's name, the strace logs, the pictures
/// (a timeline first, then one per ladder, in reportLadders() order).
struct IncidentReportInput {
    std::string captureName;
    const StraceAlignment* alignment = nullptr;
    ReportImage timeline;               ///< empty file: no timeline picture
    std::vector<ReportImage> ladders;   ///< parallel to reportLadders(); an empty file: no picture
    size_t ladderArrows = 60;           ///< arrows per ladder (the picture and the Mermaid text)
};

/// The flows an incident report draws: those with findings that cost time, largest loss first,
/// joined with their proxy partner when they have one, at most `maxLadders`.
std::vector<ReportLadder> reportLadders(const CaptureAnalysis& analysis, size_t maxLadders = 6);

/// The diagram of a report ladder (two lifelines, or three for a proxy pair).
SequenceDiagram ladderDiagram(const CaptureAnalysis& analysis, const ReportLadder& ladder);

/// The arrows to draw of `diagram`: `maxArrows` from a few before the first stall (or from the start).
LadderWindow ladderWindow(const SequenceDiagram& diagram, size_t maxArrows);

/// The incident report as Markdown: capture, findings table, time lost per connection and kind,
/// the pictures, and each ladder's Mermaid sequenceDiagram (the same arrows as its picture).
void writeIncidentMarkdown(std::ostream& out, const CaptureAnalysis& analysis, const IncidentReportInput& input);
/// The same report as one HTML page (pictures by reference, Mermaid text in <pre class="mermaid">).
void writeIncidentHtml(std::ostream& out, const CaptureAnalysis& analysis, const IncidentReportInput& input);

}  // namespace tcpscope
