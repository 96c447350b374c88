// mermaid: the ladder diagram of a flow (or a proxy pair) as Mermaid text (issue 5).
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "capture/capture_error.hpp"
#include "commands.hpp"
#include "report/mermaid_sequence.hpp"

namespace tcpscope::cli {
namespace {

struct MermaidCommandOptions {
    std::string file;
    uint32_t flow = 0;
    std::optional<uint32_t> proxyFlow;
    size_t maxArrows = 500;
};

int runMermaid(const MermaidCommandOptions& options) {
    CaptureAnalysis analysis;
    try {
        analysis = analyzeCaptures({options.file}, {});
    } catch (const CaptureError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return kExitUnreadable;
    }
    reportInputProblems(analysis);
    const size_t flows = analysis.engine->connections().size();
    for (const uint32_t id : {options.flow, options.proxyFlow.value_or(options.flow)}) {
        if (id >= flows) {
            fmt::print(stderr, "tcpscope-cli: no flow {} (the capture has {})\n", id, flows);
            return kExitUsage;
        }
    }
    if (options.proxyFlow == options.flow) {
        fmt::print(stderr, "tcpscope-cli: --proxy-flow must differ from --flow\n");
        return kExitUsage;
    }
    const SequenceDiagram diagram = options.proxyFlow
                                        ? SequenceDiagram::ofProxy(analysis, options.flow, *options.proxyFlow)
                                        : SequenceDiagram::ofConnection(analysis, options.flow);
    MermaidOptions mermaidOptions;
    mermaidOptions.maxArrows = options.maxArrows;
    std::cout << mermaidSequence(diagram, mermaidOptions);
    std::cout.flush();
    return kExitAnalysed;
}

}  // namespace

Subcommand addMermaidCommand(CLI::App& app) {
    auto options = std::make_shared<MermaidCommandOptions>();
    CLI::App* mermaid = app.add_subcommand("mermaid", "the sequence diagram of a flow as Mermaid text");
    mermaid->add_option("file", options->file, "capture file")->required();
    mermaid->add_option("--flow", options->flow, "flow id (the client side, with --proxy-flow)")->required();
    mermaid->add_option("--proxy-flow", options->proxyFlow, "the proxy's flow to the server: three lifelines");
    mermaid->add_option("--max-arrows", options->maxArrows, "packets drawn at most")->capture_default_str();
    return {mermaid, [options] { return runMermaid(*options); }};
}

}  // namespace tcpscope::cli
