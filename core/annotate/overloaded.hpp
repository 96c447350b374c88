#pragma once

namespace tcpscope {

/// Lambdas combined into one visitor for std::visit.
template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
// Spelled out for clang before 17, which does not deduce an aggregate's template arguments (P1816).
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace tcpscope
