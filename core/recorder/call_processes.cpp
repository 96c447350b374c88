#include "recorder/call_processes.hpp"

#include <fmt/format.h>

#include "decode/decoded_packet.hpp"

namespace tcpscope {
namespace {

// A packet's process as ptcpdump writes its packet comments: its keys, with the thread's comm as
// Cmd (what --comm chose), and tcpscope's own Cgroup.
std::string processComment(const RecordedCall& call, const ProcessDetails& details) {
    std::string comment = fmt::format("PID: {}\nThreadId: {}\nCmd: {}", call.pid, call.tid, call.command);
    if (!details.args.empty()) {
        comment += fmt::format("\nArgs: {}", details.args);
    }
    if (details.parentPid > 0) {
        comment += fmt::format("\nParentPID: {}", details.parentPid);
        if (!details.parentCommand.empty()) {
            comment += fmt::format("\nParentCmd: {}", details.parentCommand);
        }
    }
    if (!details.cgroup.empty()) {
        comment += fmt::format("\nCgroup: {}", details.cgroup);
    }
    return comment;
}

}  // namespace

void CallProcesses::learn(const RecordedCall& call) {
    if (!call.hasSocket || call.remote.port == 0) {
        return;
    }
    EndProcess& end = ends_[std::make_pair(call.local, call.remote)];
    if (end.pid != call.pid || end.tid != call.tid || end.comment.empty()) {
        end = EndProcess{call.pid, call.tid, processComment(call, detailsOf(call.pid))};
    }
}

CallProcesses::PacketEnd CallProcesses::of(const TcpSegment& segment) const {
    PacketDirection direction = PacketDirection::Outbound;
    const EndProcess* process = find(segment.source, segment.destination);
    if (process == nullptr) {
        direction = PacketDirection::Inbound;
        process = find(segment.destination, segment.source);
    }
    if (process == nullptr) {
        return {};
    }
    return {process->comment, direction};
}

const ProcessDetails& CallProcesses::detailsOf(uint32_t pid) {
    auto [found, added] = processes_.try_emplace(pid);
    if (added) {
        found->second = readProcessDetails(pid);
    }
    return found->second;
}

const CallProcesses::EndProcess* CallProcesses::find(const Endpoint& local, const Endpoint& remote) const {
    const auto found = ends_.find(std::make_pair(local, remote));
    return found == ends_.end() ? nullptr : &found->second;
}

}  // namespace tcpscope
