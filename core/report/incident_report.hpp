#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"
#include "incident/incident.hpp"
#include "points/point_analysis.hpp"
#include "report/incident_sections.hpp"
#include "report/report_blocks.hpp"

namespace tcpscope {

/// A picture written next to the report, by whoever renders it (the GUI's export code).
struct ReportImage {
    std::string title;        ///< "Timeline", "Sequence diagram of flows #0 and #1"
    std::string file;         ///< relative to the report, e.g. "cause-1-sequence.png"
    std::string vectorFile;   ///< the same as SVG, or empty
    std::string dataUri;      ///< the PNG as a data: URI, for the HTML page that loads nothing else
    std::string note;         ///< what it shows and leaves out: "lanes grouped by server endpoint", ...
    size_t sequenceArrows = 0;  ///< a sequence diagram: the arrows drawn, if fewer than the input's fit
};

/// What the report shows besides the analysis: the capture's name, the strace logs, the pictures
/// (a timeline of the whole capture, then one per section of the plan, in its order).
struct IncidentReportInput {
    std::string captureName;
    const StraceAlignment* alignment = nullptr;
    /// The findings linked into incidents (Investigation::incidents); none: every cause reads on its own.
    const std::vector<Incident>* incidents = nullptr;
    /// planReport(analysis, *incidents), made once by whoever draws the pictures; none: made by each writer.
    std::optional<ReportPlan> plan;
    ReportImage timeline;               ///< empty file: no timeline picture
    std::vector<ReportImage> sections;  ///< parallel to the plan's sections; an empty file: no picture
    size_t sequenceArrows = 60;         ///< arrows per sequence diagram (the picture and the Mermaid text)
    /// Several capture points: their files, clocks and hops, in a section after the causes; null with one.
    const CapturePointsSummary* points = nullptr;
};

/// The incident report as Markdown: the capture, a one-screen summary (the incidents with their impact in
/// the user's terms, the chain and the fix of the first, evidence), then one section per incident (its
/// impact, chain, events, the pictures and affected connections of its causes, a sequence diagram's
/// Mermaid sequenceDiagram with the same arrows as its picture, its fix and what does not help, once),
/// the causes of no incident, the timeline, the findings.
void writeIncidentMarkdown(std::ostream& out, const CaptureAnalysis& analysis, const IncidentReportInput& input);
/// The same report as one HTML page: self-contained (pictures as data: URIs), or, with
/// options.forPrint, the page QTextDocument turns into the PDF.
void writeIncidentHtml(std::ostream& out, const CaptureAnalysis& analysis, const IncidentReportInput& input,
                       const HtmlReportOptions& options = {});

}  // namespace tcpscope
