#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "engine/analysis_engine.hpp"
#include "filter/filter_field.hpp"
#include "filter/filter_parser.hpp"
#include "filter/filter_program.hpp"

namespace tcpscope::filter {

/// A display filter in Wireshark's words (`tcp.analysis.flags && tcp.port == 3306`), compiled once
/// and then tested on packets: a test reads the packet's record and its connection, allocates
/// nothing and calls nothing virtual. The fields and operators are those of docs/cli.md.
class DisplayFilter {
public:
    /// Compiles `expression`. Throws DisplayFilterError (the offset and the reason) for a syntax
    /// error, a field tcpscope does not know, or a value the field cannot take.
    static DisplayFilter compile(std::string_view expression);

    /// True if `packet` passes the filter. A field the packet does not have (ip.src of an IPv6
    /// packet) makes its test false, as in Wireshark.
    [[nodiscard]] bool matches(const FilterPacket& packet) const { return evaluate(program_.root, packet); }

    /// True if the packet at `position` of the engine's packet index passes the filter; `record`
    /// is its frame's record when readsFrameRecords() (FrameRecordCursor), else null.
    [[nodiscard]] bool matchesAt(const AnalysisEngine& engine, size_t position,
                                 const FrameRecord* record = nullptr) const;

    /// True if a field of the filter is read from the frame's own record (frame.len, ip.ttl, TCP
    /// options ...): the caller then reads the file again for them (without a record they are absent).
    [[nodiscard]] bool readsFrameRecords() const { return readsFrameRecords_; }

    /// The expression as given.
    [[nodiscard]] const std::string& expression() const { return expression_; }

private:
    DisplayFilter(std::string expression, FilterProgram program);
    [[nodiscard]] bool evaluate(uint32_t node, const FilterPacket& packet) const;

    std::string expression_;
    FilterProgram program_;
    bool readsFrameRecords_ = false;
};

}  // namespace tcpscope::filter
