#pragma once
#include <array>
#include <cstdint>

#include "analysis/capture_analysis.hpp"
#include "records/record_sink.hpp"
#include "records/record_source.hpp"

namespace tcpscope {

/// How many records of each type were written, by RecordType.
struct RecordCounts {
    std::array<uint64_t, kRecordTypeCount> byType{};

    [[nodiscard]] uint64_t of(RecordType type) const { return byType[static_cast<size_t>(type)]; }
    [[nodiscard]] uint64_t total() const { return byType[0] + byType[1] + byType[2]; }
};

/// Writes every record of a finished analysis into `sink`: one `flow` per connection generation (in
/// id order), one `finding` per finding (completed as it is written), then the `series`.
RecordCounts writeAnalysisRecords(const RecordSource& source, const CaptureAnalysis& analysis, RecordSink& sink);

}  // namespace tcpscope
