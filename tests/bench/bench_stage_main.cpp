// tcpscope-bench-stage decode|track FILE...: one stage of the benchmark's breakdown (stage_runner.hpp),
// timed by run_benchmark.sh --stages. Prints what the stage saw as one JSON line. Not installed.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "bench/stage_runner.hpp"

int main(int argc, char** argv) {
    using tcpscope::bench::Stage;
    if (argc < 3 || (std::strcmp(argv[1], "decode") != 0 && std::strcmp(argv[1], "track") != 0)) {
        std::fprintf(stderr, "usage: tcpscope-bench-stage decode|track FILE...\n");
        return 2;
    }
    const Stage stage = std::strcmp(argv[1], "decode") == 0 ? Stage::Decode : Stage::Track;
    const std::vector<std::string> paths(argv + 2, argv + argc);
    try {
        const tcpscope::bench::StageCounts counts = tcpscope::bench::runStage(paths, stage);
        std::printf("{\"stage\":\"%s\",\"frames\":%llu,\"tcp\":%llu,\"duplicates\":%llu,\"connections\":%llu}\n",
                    argv[1], static_cast<unsigned long long>(counts.frames),
                    static_cast<unsigned long long>(counts.tcp), static_cast<unsigned long long>(counts.duplicates),
                    static_cast<unsigned long long>(counts.connections));
    } catch (const std::exception& error) {
        std::fprintf(stderr, "tcpscope-bench-stage: %s\n", error.what());
        return 1;
    }
    return 0;
}
