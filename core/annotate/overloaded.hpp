#pragma once

namespace tcpscope {

/// Lambdas combined into one visitor for std::visit.
template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};

}  // namespace tcpscope
