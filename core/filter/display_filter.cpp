#include "filter/display_filter.hpp"

#include <algorithm>

namespace tcpscope::filter {
namespace {

bool within(const FilterKey& value, const KeyRange& range) {
    return range.low <= value && value <= range.high;
}

bool compare(CompareOp op, const FilterKey& value, const KeyRange& operand) {
    switch (op) {
        case CompareOp::Equal:
        case CompareOp::AllEqual: return within(value, operand);
        case CompareOp::NotEqual:
        case CompareOp::AnyNotEqual: return !within(value, operand);
        case CompareOp::Less: return value < operand.low;
        case CompareOp::LessEqual: return value <= operand.high;
        case CompareOp::Greater: return value > operand.high;
        case CompareOp::GreaterEqual: return value >= operand.low;
        case CompareOp::BitAnd: return (value.asSigned() & operand.low.asSigned()) != 0;
    }
    return false;
}

}  // namespace

DisplayFilter::DisplayFilter(std::string expression, FilterProgram program)
    : expression_(std::move(expression)), program_(std::move(program)) {
    readsFrameRecords_ = std::any_of(program_.nodes.begin(), program_.nodes.end(), [](const FilterNode& node) {
        return (node.kind == NodeKind::Present || node.kind == NodeKind::Compare || node.kind == NodeKind::InSet) &&
               node.field.readsRecord;
    });
}

DisplayFilter DisplayFilter::compile(std::string_view expression) {
    return {std::string(expression), parseDisplayFilter(expression)};
}

bool DisplayFilter::matchesAt(const AnalysisEngine& engine, size_t position, const FrameRecord* record) const {
    const IndexedPacket packet = engine.packets().at(position);
    return matches(FilterPacket{packet, engine.connections()[packet.connection], engine.firstTsNs(), record});
}

bool DisplayFilter::evaluate(uint32_t index, const FilterPacket& packet) const {
    const FilterNode& node = program_.nodes[index];
    switch (node.kind) {
        case NodeKind::And: return evaluate(node.left, packet) && evaluate(node.right, packet);
        case NodeKind::Or: return evaluate(node.left, packet) || evaluate(node.right, packet);
        case NodeKind::Not: return !evaluate(node.left, packet);
        case NodeKind::Present: return fieldValues(node.field, packet).count > 0;
        case NodeKind::Compare: {
            const FieldValues values = fieldValues(node.field, packet);
            const auto begin = values.keys.begin();
            const auto end = begin + values.count;
            const auto passes = [&node](const FilterKey& value) { return compare(node.op, value, node.operand); };
            // Wireshark 3.6 and later: != and === ask every value, the others any value; a field
            // the packet does not have fails every test.
            if (values.count == 0) {
                return false;
            }
            if (node.op == CompareOp::NotEqual || node.op == CompareOp::AllEqual) {
                return std::all_of(begin, end, passes);
            }
            return std::any_of(begin, end, passes);
        }
        case NodeKind::InSet: {
            const FieldValues values = fieldValues(node.field, packet);
            const auto elementsBegin = program_.setElements.begin() + node.setBegin;
            const auto elementsEnd = program_.setElements.begin() + node.setEnd;
            return std::any_of(values.keys.begin(), values.keys.begin() + values.count, [&](const FilterKey& value) {
                return std::any_of(elementsBegin, elementsEnd,
                                   [&value](const KeyRange& range) { return within(value, range); });
            });
        }
    }
    return false;
}

}  // namespace tcpscope::filter
