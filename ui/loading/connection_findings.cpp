#include "loading/connection_findings.hpp"

#include <algorithm>
#include <string_view>

namespace tcpscope::ui {

ConnectionFindings ConnectionFindings::of(const ConnectionStore& connections,
                                          const std::vector<Finding>& findings) {
    ConnectionFindings result;
    result.timeLostMs.assign(connections.size(), 0);
    result.kinds.resize(connections.size());
    // Only connections with findings get a string: (connection, kind) pairs, sorted and folded.
    std::vector<std::pair<uint32_t, std::string_view>> kindsOf;
    kindsOf.reserve(findings.size());
    for (const Finding& finding : findings) {
        if (finding.connection < connections.size()) {
            result.timeLostMs[finding.connection] += finding.durationMs;
            kindsOf.emplace_back(finding.connection, findingKindName(finding.kind));
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
