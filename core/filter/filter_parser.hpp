#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "filter/filter_program.hpp"

namespace tcpscope::filter {

/// Why an expression is no filter tcpscope can run: where (a byte offset into the expression)
/// and why, in words a Wireshark user reads.
class DisplayFilterError : public std::runtime_error {
public:
    DisplayFilterError(std::string expression, size_t offset, std::string reason);
    [[nodiscard]] const std::string& expression() const { return expression_; }
    [[nodiscard]] size_t offset() const { return offset_; }
    [[nodiscard]] const std::string& reason() const { return reason_; }

private:
    std::string expression_;
    size_t offset_;
    std::string reason_;
};

/// The longest expression accepted, and the deepest nesting of parentheses and negations.
inline constexpr size_t kMaxFilterLength = size_t{64} * 1024;
inline constexpr size_t kMaxFilterDepth = 200;

/// Parses a display filter in Wireshark's syntax. Throws DisplayFilterError.
FilterProgram parseDisplayFilter(std::string_view expression);

}  // namespace tcpscope::filter
