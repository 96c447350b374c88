#pragma once
#include <stdexcept>
#include <string>

namespace tcpscope::bench {

/// The generator could not write its output: "FILE: offset N: reason".
class GeneratorError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace tcpscope::bench
