// tcpscope-cli: the headless front end. Argument parsing and output only; the work is in core/.
// Each subcommand lives in its own file (commands.hpp lists them).
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "tcpscope_version.hpp"

int main(int argc, char** argv) {
    using namespace tcpscope::cli;
    CLI::App app{"tcpscope-cli: find the stalls in TCP captures (Nagle and delayed ACK, port reuse, "
                 "TIME_WAIT, backlog overflow)"};
    app.require_subcommand(1);
    app.set_version_flag("--version", tcpscope::kVersionLine);

    std::vector<Subcommand> subcommands = {
        addAnalyzeCommand(app), addFlowsCommand(app),    addPacketsCommand(app), addFollowCommand(app),
        addMermaidCommand(app), addGenerateCommand(app), addNotesCommand(app),
        addCaptureCommand(app), addInterfacesCommand(app), addExportCommand(app),
        addFleetCommand(app),
    };
    subcommands.push_back(addRecordCommand(app));
#ifdef TCPSCOPE_CLI_EXPORTS
    subcommands.push_back(addDiagramCommand(app));
    subcommands.push_back(addReportCommand(app));
#endif

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& help) {
        return app.exit(help);
    } catch (const CLI::CallForAllHelp& help) {
        return app.exit(help);
    } catch (const CLI::CallForVersion& version) {
        return app.exit(version);
    } catch (const CLI::ParseError& error) {
        app.exit(error);
        return kExitUsage;
    }
    for (const Subcommand& subcommand : subcommands) {
        if (subcommand.command->parsed()) {
            return subcommand.run();
        }
    }
    return kExitUsage;
}
