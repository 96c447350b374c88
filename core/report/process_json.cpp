#include "report/process_json.hpp"

namespace tcpscope {

namespace {

// The fields the capture gave, and no other: pid, thread, command, args, parent, container, pod, cgroup,
// uuid, effective.
void writeProcessFields(JsonStreamWriter& out, const PacketProcess& process) {
    if (process.pid > 0) {
        out.field("pid", process.pid);
    }
    if (process.thread > 0) {
        out.field("thread", process.thread);
    }
    if (!process.command.empty()) {
        out.field("command", process.command);
    }
    if (!process.args.empty()) {
        out.field("args", process.args);
    }
    if (process.parentPid > 0 || !process.parentCommand.empty()) {
        out.key("parent");
        out.beginObject();
        if (process.parentPid > 0) {
            out.field("pid", process.parentPid);
        }
        if (!process.parentCommand.empty()) {
            out.field("command", process.parentCommand);
        }
        out.endObject();
    }
    if (!process.container.empty()) {
        out.field("container", process.container);
    }
    if (!process.pod.empty()) {
        out.field("pod", process.pod);
    }
    if (!process.cgroup.empty()) {
        out.field("cgroup", process.cgroup);
    }
    if (!process.uuid.empty()) {
        out.field("uuid", process.uuid);
    }
    if (process.effectivePid > 0) {
        out.key("effective");
        out.beginObject();
        out.field("pid", process.effectivePid);
        if (!process.effectiveCommand.empty()) {
            out.field("command", process.effectiveCommand);
        }
        out.endObject();
    }
}

void writeEnd(JsonStreamWriter& out, const ConnectionProcesses& processes, const ConnectionProcesses::End& end) {
    out.beginObject();
    writeProcessFields(out, processes.process(end.first));
    if (end.otherCount > 0) {
        out.key("others");
        out.beginArray();
        for (size_t i = 0; i < end.listedOthers(); ++i) {
            out.beginObject();
            writeProcessFields(out, processes.process(end.others[i]));
            out.endObject();
        }
        out.endArray();
        if (end.moreOthers()) {
            out.field("more_others", true);
        }
    }
    out.endObject();
}

}  // namespace

void writeFlowProcessesJson(JsonStreamWriter& out, const ConnectionProcesses& processes, uint32_t connection) {
    if (processes.empty()) {
        return;
    }
    const ConnectionProcesses::End* client = processes.of(connection, Side::Client);
    const ConnectionProcesses::End* server = processes.of(connection, Side::Server);
    if (client == nullptr && server == nullptr) {
        return;
    }
    out.key("process");
    out.beginObject();
    if (client != nullptr) {
        out.key("client");
        writeEnd(out, processes, *client);
    }
    if (server != nullptr) {
        out.key("server");
        writeEnd(out, processes, *server);
    }
    out.endObject();
}

}  // namespace tcpscope
