// mermaid: the sequence diagram of a flow (or a proxy pair) as Mermaid text, with the
// traced processes' system calls beside their lifelines when strace logs are given.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "present/sequence_syscalls.hpp"
#include "report/mermaid_sequence.hpp"

namespace tcpscope::cli {
namespace {

struct MermaidCommandOptions {
    AnalysisInputOptions input;
    uint32_t flow = 0;
    std::optional<uint32_t> proxyFlow;
    size_t maxArrows = 500;
};

int runMermaid(const CLI::App& command, MermaidCommandOptions& options) {
    if (options.proxyFlow == options.flow) {
        fmt::print(stderr, "tcpscope-cli: --proxy-flow must differ from --flow\n");
        return kExitUsage;
    }
    Investigation loaded;
    if (const int status = loadAnalysis(command, options.input, loaded); status != kExitAnalysed) {
        return status;
    }
    const CaptureAnalysis& analysis = loaded.analysis;
    const size_t flows = analysis.engine->connections().size();
    for (const uint32_t id : {options.flow, options.proxyFlow.value_or(options.flow)}) {
        if (id >= flows) {
            fmt::print(stderr, "tcpscope-cli: no flow {} (the capture has {})\n", id, flows);
            return kExitUsage;
        }
    }
    const SequenceDiagram diagram = options.proxyFlow
                                        ? SequenceDiagram::ofProxy(analysis, options.flow, *options.proxyFlow)
                                        : SequenceDiagram::ofConnection(analysis, options.flow);
    std::vector<DiagramSyscall> syscalls;
    MermaidOptions mermaidOptions;
    mermaidOptions.maxArrows = options.maxArrows;
    if (const StraceAlignment* alignment = loaded.aligned()) {
        syscalls = diagramSyscalls(*alignment, diagram);
        mermaidOptions.syscalls = &syscalls;
    }
    std::cout << mermaidSequence(diagram, mermaidOptions);
    std::cout.flush();
    return kExitAnalysed;
}

}  // namespace

Subcommand addMermaidCommand(CLI::App& app) {
    auto options = std::make_shared<MermaidCommandOptions>();
    CLI::App* mermaid = app.add_subcommand("mermaid", "the sequence diagram of a flow as Mermaid text");
    addAnalysisInputOptions(*mermaid, options->input, false);
    mermaid->add_option("--flow", options->flow, "flow id (the client side, with --proxy-flow)")->required();
    mermaid->add_option("--proxy-flow", options->proxyFlow, "the proxy's flow to the server: three lifelines");
    mermaid->add_option("--max-arrows", options->maxArrows, "packets drawn at most")->capture_default_str();
    return {mermaid, [mermaid, options] { return runMermaid(*mermaid, *options); }};
}

}  // namespace tcpscope::cli
