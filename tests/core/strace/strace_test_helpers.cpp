#include "core/strace/strace_test_helpers.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>

namespace tcpscope::testing {

SyscallRecord onlyRecord(const StraceLog& log) {
    INFO("unparsed lines: " << log.stats.unparsedLines);
    REQUIRE(log.records.size() == 1);
    return log.records.front();
}

std::string readText(const std::string& path) {
    std::ifstream input(path, std::ios::binary);
    INFO(path);
    REQUIRE(input);
    return {std::istreambuf_iterator<char>(input), std::istreambuf_iterator<char>()};
}

size_t countLinesWith(std::string_view text, std::string_view needle) {
    size_t count = 0;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        if (text.substr(start, end - start).find(needle) != std::string_view::npos) {
            ++count;
        }
        start = end + 1;
    }
    return count;
}

}  // namespace tcpscope::testing
