#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace tcpscope {

/// A JSON tree as text, as nlohmann's dump(indent) writes it, except that text that is not valid
/// UTF-8 is written with U+FFFD in place of the bad bytes instead of throwing: a writer never
/// fails on a string from an input. `indent` -1 writes one line.
template <typename Tree>
std::string jsonText(const Tree& tree, int indent = -1) {
    return tree.dump(indent, ' ', false, Tree::error_handler_t::replace);
}

}  // namespace tcpscope
