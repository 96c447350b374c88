#include "present/process_label.hpp"

#include <fmt/format.h>

#include <string_view>

#include "text/display_text.hpp"

namespace tcpscope {

std::string processLabel(const PacketProcess& process) {
    std::string_view command = process.command;
    // ptcpdump writes the executable's path: its file name is what a reader looks for.
    if (const size_t slash = command.find_last_of('/'); slash != std::string_view::npos && slash + 1 < command.size()) {
        command.remove_prefix(slash + 1);
    }
    const std::string name = displayText(command, LineBreaks::Spaces);
    if (process.pid <= 0) {
        return name;
    }
    return name.empty() ? fmt::format("pid {}", process.pid) : fmt::format("{} (pid {})", name, process.pid);
}

std::string endProcessesLabel(const ConnectionProcesses& processes, const ConnectionProcesses::End& end) {
    std::string label = processLabel(processes.process(end.first));
    if (end.otherCount > 0) {
        label += fmt::format(" and {}{} more", end.moreOthers() ? "over " : "", end.listedOthers());
    }
    return label;
}

std::string connectionProcessesLabel(const ConnectionProcesses& processes, uint32_t connection) {
    std::string label;
    for (const Side side : {Side::Client, Side::Server}) {
        if (const ConnectionProcesses::End* end = processes.of(connection, side)) {
            label +=
                fmt::format("{}{} {}", label.empty() ? "" : ", ", sideName(side), endProcessesLabel(processes, *end));
        }
    }
    return label;
}

}  // namespace tcpscope
