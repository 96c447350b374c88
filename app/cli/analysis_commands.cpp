// analyze, flows, packets: the analysis of captures as text or tcpscope/1 JSON.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "capture/frame_export.hpp"
#include "commands.hpp"
#include "filter/display_filter.hpp"
#include "points/points_report.hpp"
#include "report/incidents_json.hpp"
#include "report/incidents_text.hpp"
#include "report/json_report.hpp"
#include "report/packet_details_text.hpp"
#include "report/placement_text.hpp"
#include "report/report_notes.hpp"
#include "report/syscalls_text.hpp"
#include "report/text_report.hpp"

namespace tcpscope::cli {
namespace {

struct AnalysisCommandOptions {
    AnalysisInputOptions input;
    std::string format = "text";
    std::optional<uint32_t> flow;  // packets only
    bool details = false;          // packets -V: each packet's details, read again from the file
    std::string displayFilter;     // packets only: -Y, as given
    std::string writeTo;           // packets -w: the listed packets go to this capture file instead
    std::optional<filter::DisplayFilter> compiledFilter;
};

enum class Output { Analyze, Flows, Packets };

// With several capture points, the points that saw each packet; otherwise none.
PacketSightingsFn packetSightings(const Investigation& loaded) {
    if (!loaded.sightings || !loaded.points) {
        return {};
    }
    return [sightings = loaded.sightings, points = &loaded.points->points](uint32_t frame) {
        std::vector<PacketSighting> seen;
        for (const PointSightings::Sighting& sighting : sightings->sightingsOfFrame(frame)) {
            seen.push_back({(*points)[sighting.point].point.name, sighting.tsNs});
        }
        return seen;
    };
}

// The frames of the packets the listing shows, in order.
std::vector<uint32_t> listedFrames(const CaptureAnalysis& analysis, std::optional<uint32_t> flow,
                                   const PacketSelectionFn& selected) {
    const PacketIndex& packets = analysis.engine->packets();
    std::vector<uint32_t> frames;
    for (size_t position = 0; position < packets.size(); ++position) {
        if ((!flow || packets.connection(position) == *flow) && (!selected || selected(position))) {
            frames.push_back(packets.frame(position));
        }
    }
    return frames;
}

// packets -w: the frames the listing would show, copied from the capture file to a new one.
int writeListedPackets(const CaptureAnalysis& analysis, const AnalysisCommandOptions& options,
                       const PacketSelectionFn& selected) {
    const std::vector<uint32_t> frames = listedFrames(analysis, options.flow, selected);
    try {
        const FrameExportResult written = exportFrames(options.input.files.front(), frames, options.writeTo);
        for (const InputProblem& problem : written.problems) {
            fmt::print(stderr, "tcpscope-cli: {}\n", problem.describe());
        }
        fmt::print(stderr, "wrote {}: {} packets ({})\n", options.writeTo, written.packets, written.container);
    } catch (const CaptureWriteError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return kExitUnreadable;
    } catch (const CaptureError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return kExitUnreadable;
    }
    return kExitAnalysed;
}

int writeOutput(Output output, const Investigation& loaded, const AnalysisCommandOptions& options) {
    const CaptureAnalysis& analysis = loaded.analysis;
    const StraceAlignment* aligned = loaded.aligned();
    const bool json = options.format == "json";
    switch (output) {
        case Output::Analyze:
            if (json) {
                Json sections = loaded.points ? pointsJson(*loaded.points) : Json::object();
                sections["incidents"] = incidentsJson(loaded.incidents, analysis.engine->timeOrigin());
                writeAnalysisReportJson(std::cout, analysis, aligned, std::move(sections));
                std::cout << '\n';
            } else {
                writeIncidentsText(std::cout, loaded.incidents);
                if (loaded.points) {
                    writePointsText(std::cout, *loaded.points);
                    writePlacementsText(std::cout, analysis);
                }
                writeAnalysisText(std::cout, analysis);
                if (aligned != nullptr) {
                    writeSyscallsText(std::cout, *aligned);
                }
                writeNotesText(std::cout, analysis);
            }
            break;
        case Output::Flows:
            if (json) {
                writeFlowsReportJson(std::cout, analysis, aligned,
                                     loaded.points ? pointsJson(*loaded.points) : Json::object());
                std::cout << '\n';
            } else {
                if (loaded.points) {
                    writePointsText(std::cout, *loaded.points);
                }
                writeFlowsText(std::cout, analysis);
            }
            break;
        case Output::Packets: {
            PacketSelectionFn selected;
            // The fields of a frame's own record (frame.len, ip.ttl, TCP options) come from reading the
            // file again beside the listing; the file was read once already, so it opens.
            std::optional<filter::FrameRecordCursor> records;
            if (options.compiledFilter && options.compiledFilter->readsFrameRecords()) {
                records.emplace(options.input.files.front());
            }
            if (options.compiledFilter) {
                selected = [&filter = *options.compiledFilter, &engine = *analysis.engine, &records](size_t position) {
                    const filter::FrameRecord* record =
                        records ? records->seek(engine.packets().frame(position)) : nullptr;
                    return filter.matchesAt(engine, position, record);
                };
            }
            if (!options.writeTo.empty()) {
                return writeListedPackets(analysis, options, selected);
            }
            if (options.details) {
                writePacketDetailsText(std::cout, analysis, options.flow, selected);
            } else if (json) {
                writePacketsReportJson(std::cout, analysis, options.flow, packetSightings(loaded), selected);
                std::cout << '\n';
            } else {
                writePacketsText(std::cout, analysis, options.flow, packetSightings(loaded), selected);
            }
            break;
        }
    }
    std::cout.flush();
    return kExitAnalysed;
}

Subcommand addAnalysisCommand(CLI::App& app, Output output, const char* name, const char* description) {
    auto options = std::make_shared<AnalysisCommandOptions>();
    options->input.readsPackets = output == Output::Packets;  // analyze and flows report connections and findings
    CLI::App* command = app.add_subcommand(name, description);
    addAnalysisInputOptions(*command, options->input, output == Output::Analyze);
    command->add_option("--format", options->format, "output format")->check(CLI::IsMember({"text", "json"}));
    if (output == Output::Packets) {
        command->add_option("--flow", options->flow, "only the packets of this flow id");
        command->add_option("-Y,--display-filter", options->displayFilter,
                            "only the packets this display filter matches, in Wireshark's words, e.g. "
                            "'tcp.analysis.flags && tcp.port == 3306' (docs/cli.md lists the fields)");
        CLI::Option* details =
            command->add_flag("-V,--details", options->details,
                              "each packet's details as tshark -V shows them (link, IP and TCP headers with every "
                              "option, payload), then its bytes; read again from the file");
        command
            ->add_option("-w,--write", options->writeTo,
                         "write the packets that would be listed to this capture file instead, each copied from the "
                         "input unchanged (bytes, lengths, time); a pcap input gives a pcap file, a pcapng input a "
                         "pcapng file")
            ->excludes(details);
    }
    addCapturePointOption(*command, options->input);
    return {command, [command, options, output] {
                // The JSON report writes the findings one at a time (the text lists their
                // summaries first); the flows read only their kinds and durations.
                options->input.describesWhenWritten =
                    output == Output::Flows || (output == Output::Analyze && options->format == "json");
                if (output == Output::Packets && command->count("--display-filter") > 0) {
                    try {
                        options->compiledFilter = filter::DisplayFilter::compile(options->displayFilter);
                    } catch (const filter::DisplayFilterError& error) {
                        fmt::print(stderr, "tcpscope-cli: -Y {}\n", error.what());
                        return kExitUsage;
                    }
                }
                if (output == Output::Packets && options->details &&
                    (!options->input.points.empty() || options->input.files.empty() || options->input.files.front() == "-")) {
                    fmt::print(stderr, "tcpscope-cli: -V reads the packets again from the capture file: it needs a "
                                       "file, not standard input or capture points\n");
                    return kExitUsage;
                }
                if (output == Output::Packets && !options->writeTo.empty() &&
                    (!options->input.points.empty() || options->input.files.size() != 1 ||
                     options->input.files.front() == "-")) {
                    fmt::print(stderr, "tcpscope-cli: -w copies packets from one capture file: give one file, not "
                                       "several, standard input or capture points\n");
                    return kExitUsage;
                }
                if (output == Output::Packets && options->compiledFilter) {
                    // Reading a frame's record again needs the one file its frame numbers count in.
                    if (options->compiledFilter->readsFrameRecords() &&
                        (!options->input.points.empty() || options->input.files.size() != 1 ||
                         options->input.files.front() == "-")) {
                        fmt::print(stderr,
                                   "tcpscope-cli: -Y '{}': frame.len, frame.cap_len, frame.time_delta, ip.ttl, ip.id, "
                                   "ipv6.hlim and tcp.options.* are read from the capture file again: they need one "
                                   "file, not standard input or capture points\n",
                                   options->displayFilter);
                        return kExitUsage;
                    }
                }
                Investigation loaded;
                if (const int status = loadAnalysis(*command, options->input, loaded); status != kExitAnalysed) {
                    return status;
                }
                const int status = writeOutput(output, loaded, *options);
                // The process ends here: the system takes the analysis' memory back at once, where
                // freeing it (the findings' evidence trees node by node) took 8% of a W1 run.
                std::fflush(nullptr);
                std::_Exit(status);
            }};
}

}  // namespace

Subcommand addAnalyzeCommand(CLI::App& app) {
    return addAnalysisCommand(app, Output::Analyze, "analyze", "capture summary, findings and connections");
}

Subcommand addFlowsCommand(CLI::App& app) {
    return addAnalysisCommand(app, Output::Flows, "flows", "the connection table");
}

Subcommand addPacketsCommand(CLI::App& app) {
    return addAnalysisCommand(app, Output::Packets, "packets",
                              "one row per TCP packet with Wireshark's analysis flags");
}

}  // namespace tcpscope::cli
