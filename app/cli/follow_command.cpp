// follow: a connection's payload in order, as `tshark -q -z follow,tcp,FORMAT,STREAM` prints it.
#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "dissect/frame_bytes_reader.hpp"
#include "report/packet_details_text.hpp"

namespace tcpscope::cli {

namespace {
struct FollowOptions {
    AnalysisInputOptions input;
    std::string file;
    uint32_t stream = 0;
    std::string format = "ascii";
};
}  // namespace

Subcommand addFollowCommand(CLI::App& app) {
    auto options = std::make_shared<FollowOptions>();
    CLI::App* command =
        app.add_subcommand("follow", "Follow TCP Stream: one connection's payload in order, each byte once");
    // The file and the stream are both positional, as tshark's: the file is one string here.
    command->add_option("file", options->file, "capture file (pcap, pcapng, gzip or zstd)")->required();
    command->add_option("--filter", options->input.filter, "tcpdump filter expression, e.g. 'tcp port 3306'");
    addDetectorOptions(*command, options->input.thresholds);
    command->add_option("stream", options->stream, "the connection's number (tcp.stream, the flow id)")->required();
    command->add_option("--format", options->format, "ascii (as tshark -z follow,tcp,ascii), hex or raw")
        ->check(CLI::IsMember({"ascii", "hex", "raw"}));
    return {command, [command, options] {
                options->input.files = {options->file};
                if (options->file == "-") {
                    fmt::print(stderr,
                               "tcpscope-cli: follow reads the payload again from the capture file: it "
                               "needs a file, not standard input\n");
                    return kExitUsage;
                }
                Investigation loaded;
                if (const int status = loadAnalysis(*command, options->input, loaded); status != kExitAnalysed) {
                    return status;
                }
                const AnalysisEngine& engine = *loaded.analysis.engine;
                if (options->stream >= engine.connections().size()) {
                    fmt::print(stderr, "tcpscope-cli: follow: no TCP stream {} (the capture has {})\n", options->stream,
                               engine.connections().size());
                    return kExitUsage;
                }
                const Connection& connection = engine.connections()[options->stream];
                dissect::FrameBytesReader reader(options->file);
                const dissect::FollowedStream followed =
                    dissect::followTcpStream(engine.packets(), options->stream, reader);
                const FollowFormat format = options->format == "hex"   ? FollowFormat::Hex
                                            : options->format == "raw" ? FollowFormat::Raw
                                                                       : FollowFormat::Ascii;
                writeFollowText(std::cout, followed, options->stream, connection.client.toString(),
                                connection.server.toString(), format);
                std::cout.flush();
                std::fflush(nullptr);
                std::_Exit(kExitAnalysed);  // as analyze: the system takes the analysis' memory back
            }};
}

}  // namespace tcpscope::cli
