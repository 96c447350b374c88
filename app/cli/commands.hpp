#pragma once
// The subcommands of tcpscope-cli, one file each; main.cpp registers them in this order.
#include <CLI/CLI.hpp>

#include "cli_common.hpp"

namespace tcpscope::cli {

Subcommand addAnalyzeCommand(CLI::App& app);   // analysis_commands.cpp
Subcommand addFlowsCommand(CLI::App& app);     // analysis_commands.cpp
Subcommand addPacketsCommand(CLI::App& app);   // analysis_commands.cpp
Subcommand addFollowCommand(CLI::App& app);    // follow_command.cpp
Subcommand addMermaidCommand(CLI::App& app);   // mermaid_command.cpp
Subcommand addGenerateCommand(CLI::App& app);  // generate_command.cpp
Subcommand addCaptureCommand(CLI::App& app);     // capture_command.cpp
Subcommand addInterfacesCommand(CLI::App& app);  // capture_command.cpp
Subcommand addNotesCommand(CLI::App& app);     // notes_command.cpp
Subcommand addExportCommand(CLI::App& app);    // export_command.cpp
Subcommand addFleetCommand(CLI::App& app);     // fleet_command.cpp
Subcommand addRecordCommand(CLI::App& app);    // record_command.cpp
#ifdef TCPSCOPE_CLI_EXPORTS
Subcommand addDiagramCommand(CLI::App& app);  // diagram_command.cpp (with the GUI build only)
Subcommand addReportCommand(CLI::App& app);   // report_command.cpp (with the GUI build only)
#endif

}  // namespace tcpscope::cli
