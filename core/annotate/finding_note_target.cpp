#include "annotate/finding_note_target.hpp"

namespace tcpscope {

FindingNoteTarget findingNoteTarget(const Finding& finding, const ConnectionStore& connections) {
    FindingNoteTarget target;
    target.kind = finding.kind;
    target.tsNs = finding.tsNs;
    if (finding.connection < connections.size()) {
        const Connection& connection = connections[finding.connection];
        target.connection = connection.client.toString() + " -> " + connection.server.toString();
    }
    return target;
}

bool noteTargetsFinding(const FindingNoteTarget& target, const Finding& finding,
                        const ConnectionStore& connections) {
    if (target.kind != finding.kind || target.tsNs != finding.tsNs) {
        return false;
    }
    return target.connection == findingNoteTarget(finding, connections).connection;
}

}  // namespace tcpscope
