// diagram: a sequence diagram or timeline drawn by the GUI's views into SVG, PNG or PDF, headless.
// Built only with the GUI (TCPSCOPE_BUILD_GUI), whose drawing code it uses.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "pictures/diagram_export.hpp"
#include "pictures/headless_export.hpp"

namespace tcpscope::cli {
namespace {

struct DiagramCommandOptions {
    AnalysisInputOptions input;
    uint32_t flow = 0;
    std::optional<uint32_t> proxyFlow;
    std::string view = "sequence";
    std::string timeRange;
    std::string out;
    double scale = 1;
    double width = 0;  // the export's own: 1280, or a PDF page's width
    size_t maxArrows = 120;
};

// "A:B" in seconds since the first packet; either side may be empty ("2.5:", ":1").
bool parseTimeRange(const std::string& text, ui::DiagramRequest& request) {
    const size_t colon = text.find(':');
    if (colon == std::string::npos) {
        return false;
    }
    try {
        const std::string from = text.substr(0, colon);
        const std::string to = text.substr(colon + 1);
        size_t used = 0;
        if (!from.empty()) {
            request.fromSeconds = std::stod(from, &used);
            if (used != from.size()) {
                return false;
            }
        }
        if (!to.empty()) {
            request.toSeconds = std::stod(to, &used);
            if (used != to.size()) {
                return false;
            }
        }
    } catch (const std::exception&) {
        return false;
    }
    return true;
}

int runDiagram(const CLI::App& command, DiagramCommandOptions& options) {
    ui::DiagramRequest request;
    request.flow = options.flow;
    request.proxyFlow = options.proxyFlow;
    request.out = QString::fromStdString(options.out);
    request.scale = options.scale;
    request.widthPx = options.width;
    request.maxArrows = options.maxArrows;
    request.view = options.view == "timeline" ? ui::DiagramRequest::View::Timeline
                   : options.view == "both"   ? ui::DiagramRequest::View::Both
                                              : ui::DiagramRequest::View::Sequence;
    if (!options.timeRange.empty() && !parseTimeRange(options.timeRange, request)) {
        fmt::print(stderr, "tcpscope-cli: --time-range must be A:B in seconds since the first packet, e.g. 0.5:1.25\n");
        return kExitUsage;
    }
    if (options.proxyFlow == options.flow) {
        fmt::print(stderr, "tcpscope-cli: --proxy-flow must differ from --flow\n");
        return kExitUsage;
    }
    if (!ui::exportFormatOf(request.out)) {
        fmt::print(stderr, "tcpscope-cli: --out {}: the file name must end in .svg, .png or .pdf\n", options.out);
        return kExitUsage;
    }
    Investigation loaded;
    if (const int status = loadAnalysis(command, options.input, loaded); status != kExitAnalysed) {
        return status;
    }
    const size_t flows = loaded.analysis.engine->connections().size();
    for (const uint32_t id : {options.flow, options.proxyFlow.value_or(options.flow)}) {
        if (id >= flows) {
            fmt::print(stderr, "tcpscope-cli: no flow {} (the capture has {})\n", id, flows);
            return kExitUsage;
        }
    }
    const ui::HeadlessGui gui;
    const ui::ResultsPtr results = ui::AnalysisResults::complete(std::move(loaded));
    const ui::ExportOutcome outcome = ui::exportDiagramFile(results, request);
    if (!outcome.error.isEmpty()) {
        fmt::print(stderr, "tcpscope-cli: {}\n", outcome.error.toStdString());
        return kExitUnreadable;
    }
    fmt::print("wrote {}: {}\n", options.out, outcome.description.toStdString());
    return kExitAnalysed;
}

}  // namespace

Subcommand addDiagramCommand(CLI::App& app) {
    auto options = std::make_shared<DiagramCommandOptions>();
    CLI::App* diagram =
        app.add_subcommand("diagram", "draw a flow's sequence diagram (or the timeline) to SVG, PNG or PDF");
    addAnalysisInputOptions(*diagram, options->input, false);
    diagram->add_option("--flow", options->flow, "flow id (the client side, with --proxy-flow)")->required();
    diagram->add_option("--proxy-flow", options->proxyFlow, "the proxy's flow to the server: three lifelines");
    diagram->add_option("--view", options->view, "sequence, timeline, or both (a PDF gets one page each)")
        ->check(CLI::IsMember({"sequence", "timeline", "both"}))
        ->capture_default_str();
    diagram->add_option("--time-range", options->timeRange, "A:B, seconds since the first packet");
    diagram->add_option("--out", options->out, "NAME.svg, NAME.png or NAME.pdf")->required();
    diagram->add_option("--scale", options->scale, "PNG pixels per diagram pixel (2: for high-density screens)")
        ->check(CLI::Range(0.25, 8.0))
        ->capture_default_str();
    diagram
        ->add_option("--width", options->width,
                     "width of the diagram in pixels (default 1280; a PDF: 1047, its A4 landscape pages' width)")
        ->check(CLI::Range(400.0, 8000.0));
    diagram->add_option("--max-arrows", options->maxArrows, "packets drawn at most in a sequence diagram")
        ->check(CLI::Range(size_t{1}, size_t{5000}))
        ->capture_default_str();
    return {diagram, [diagram, options] { return runDiagram(*diagram, *options); }};
}

}  // namespace tcpscope::cli
