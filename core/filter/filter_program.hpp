#pragma once
#include <cstdint>
#include <vector>

#include "filter/filter_field.hpp"

namespace tcpscope::filter {

/// A literal as the values it stands for: one value (low == high), an address prefix or a set
/// element's range "a..b" (every value from low to high).
struct KeyRange {
    FilterKey low;
    FilterKey high;
};

/// How a test compares a field's values (Wireshark 4.0's operators). A field may have two values
/// (ip.addr, tcp.port): each operator says whether any or all of them must pass.
enum class CompareOp : uint8_t {
    Equal,         ///< ==, eq: any value equal
    NotEqual,      ///< !=, ne: all values not equal (Wireshark 3.6 and later)
    AllEqual,      ///< ===, all_eq: all values equal
    AnyNotEqual,   ///< !==, ~=, any_ne: any value not equal
    Less,          ///< <, lt: any value less
    LessEqual,     ///< <=, le
    Greater,       ///< >, gt
    GreaterEqual,  ///< >=, ge
    BitAnd,        ///< &, bitwise_and: any value with a bit of the literal set
};

enum class NodeKind : uint8_t { And, Or, Not, Present, Compare, InSet };

/// One node of a compiled filter; children and set elements are indexes into FilterProgram.
struct FilterNode {
    NodeKind kind = NodeKind::Present;
    CompareOp op = CompareOp::Equal;
    FieldInfo field;        ///< Present, Compare, InSet
    uint32_t left = 0;      ///< And, Or, Not
    uint32_t right = 0;     ///< And, Or
    KeyRange operand;       ///< Compare
    uint32_t setBegin = 0;  ///< InSet: elements [setBegin, setEnd) of FilterProgram::setElements
    uint32_t setEnd = 0;
};

/// A parsed filter: nodes in one vector, the root last.
struct FilterProgram {
    std::vector<FilterNode> nodes;
    std::vector<KeyRange> setElements;
    uint32_t root = 0;
};

}  // namespace tcpscope::filter
