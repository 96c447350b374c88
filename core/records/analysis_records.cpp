#include "records/analysis_records.hpp"

#include "records/finding_record.hpp"
#include "records/flow_record.hpp"
#include "records/series_records.hpp"
#include "report/time_lost.hpp"

namespace tcpscope {

RecordCounts writeAnalysisRecords(const RecordSource& source, const CaptureAnalysis& analysis, RecordSink& sink) {
    RecordCounts counts;
    const ConnectionStore& connections = analysis.engine->connections();
    const std::vector<TimeLostByKind> timeLost = timeLostByFlow(analysis);
    for (size_t i = 0; i < connections.size(); ++i) {
        const Connection& connection = connections[i];
        sink.write(RecordType::Flow, source.origin.epochNs(connection.firstTsNs),
                   flowRecord(source, connection, timeLost[i]));
        ++counts.byType[static_cast<size_t>(RecordType::Flow)];
    }
    Finding described;
    for (size_t i = 0; i < analysis.findings.size(); ++i) {
        const Finding& finding = analysis.completeFinding(i, described);
        const Connection* flow = finding.connection < connections.size() ? &connections[finding.connection] : nullptr;
        sink.write(RecordType::Finding, source.origin.epochNs(finding.tsNs),
                   findingRecord(source, finding, analysis.enrichments.of(finding.id), flow));
        ++counts.byType[static_cast<size_t>(RecordType::Finding)];
    }
    counts.byType[static_cast<size_t>(RecordType::Series)] = writeSeriesRecords(source, analysis, sink);
    return counts;
}

}  // namespace tcpscope
