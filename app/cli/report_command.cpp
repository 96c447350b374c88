// report: an incident report (Markdown, one-file HTML, A4 PDF; pictures as PNG and SVG beside them), headless.
// Built only with the GUI (TCPSCOPE_BUILD_GUI), whose drawing code it uses.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "pictures/headless_export.hpp"

namespace tcpscope::cli {
namespace {

struct ReportCommandOptions {
    AnalysisInputOptions input;
    std::string out;
};

int runReport(const CLI::App& command, ReportCommandOptions& options) {
    Investigation loaded;
    if (const int status = loadAnalysis(command, options.input, loaded); status != kExitAnalysed) {
        return status;
    }
    const ui::HeadlessGui gui;
    const ui::ResultsPtr results = ui::AnalysisResults::complete(std::move(loaded));
    const ui::ExportOutcome outcome = ui::exportIncidentReport(results, QString::fromStdString(options.out));
    if (!outcome.error.isEmpty()) {
        fmt::print(stderr, "tcpscope-cli: {}\n", outcome.error.toStdString());
        return kExitUnreadable;
    }
    fmt::print("wrote {}: {}\n", options.out, outcome.description.toStdString());
    for (const QString& file : outcome.written) {
        fmt::print("  {}\n", file.toStdString());
    }
    return kExitAnalysed;
}

}  // namespace

Subcommand addReportCommand(CLI::App& app) {
    auto options = std::make_shared<ReportCommandOptions>();
    CLI::App* report = app.add_subcommand(
        "report", "write an incident report: summary, one section per cause with its picture; Markdown, HTML and PDF");
    addAnalysisInputOptions(*report, options->input, true);
    addCapturePointOption(*report, options->input);
    report->add_option("--out", options->out, "directory for report.md, report.html, report.pdf and the pictures")
        ->required();
    return {report, [report, options] { return runReport(*report, *options); }};
}

}  // namespace tcpscope::cli
