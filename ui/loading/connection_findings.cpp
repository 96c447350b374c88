#include "loading/connection_findings.hpp"

#include <algorithm>
#include <string_view>

#include "finding/kind_info.hpp"

namespace tcpscope::ui {

ConnectionFindings ConnectionFindings::of(const ConnectionStore& connections, const FindingList& findings) {
    ConnectionFindings result;
    result.timeLostMs.assign(connections.size(), 0);
    result.kinds.resize(connections.size());
    // Only connections with findings get a string: (connection, kind) pairs, sorted and folded.
    std::vector<std::pair<uint32_t, std::string_view>> kindsOf;
    kindsOf.reserve(findings.size());
    for (const Finding& finding : findings) {
        if (finding.connection < connections.size()) {
            result.timeLostMs[finding.connection] += finding.durationMs;
            kindsOf.emplace_back(finding.connection, findingKindTitle(finding.kind));
            continue;
        }
        // A finding of many connections whose waits are their handshakes (a full listen backlog):
        // each delayed handshake is time its connection lost.
        if (kindInfo(finding.kind).waits != WaitUnit::Handshake) {
            continue;
        }
        for (const FindingSpan& span : finding.spans) {
            if (span.connection < connections.size() && span.endNs > span.startNs) {
                result.timeLostMs[span.connection] += static_cast<double>(span.endNs - span.startNs) / 1e6;
                kindsOf.emplace_back(span.connection, findingKindTitle(finding.kind));
            }
        }
    }
    std::sort(kindsOf.begin(), kindsOf.end());
    kindsOf.erase(std::unique(kindsOf.begin(), kindsOf.end()), kindsOf.end());
    for (const auto& [connection, kind] : kindsOf) {
        QString& names = result.kinds[connection];
        if (!names.isEmpty()) {
            names += QStringLiteral(", ");
        }
        names += QString::fromUtf8(kind.data(), static_cast<qsizetype>(kind.size()));
    }
    return result;
}

}  // namespace tcpscope::ui
