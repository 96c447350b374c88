// notes: the user's notes on a capture: list them, add one to a packet, a finding, a
// time span or a system call of a strace log, edit or remove one, and write a pcapng copy with the notes as packet comments. The
// notes live in a sidecar file beside the first capture; the capture itself is never written.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "annotate/capture_comments.hpp"
#include "annotate/capture_notes.hpp"
#include "annotate/finding_note_target.hpp"
#include "annotate/note_json.hpp"
#include "annotate/note_sidecar.hpp"
#include "annotate/pcapng_copy.hpp"
#include "commands.hpp"
#include "present/syscall_notes.hpp"
#include "report/report_notes.hpp"
#include "text/display_text.hpp"
#include "text/json_text.hpp"

namespace tcpscope::cli {
namespace {

struct NotesCommandOptions {
    AnalysisInputOptions input;
    std::optional<uint32_t> addPacket;
    std::optional<uint32_t> addFinding;
    std::string addSpan;
    std::string addSyscall;
    std::optional<uint64_t> edit;
    std::optional<uint64_t> remove;
    std::string text;
    std::string writePcapng;
    std::string format = "text";
    bool list = false;
};

int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// "A:B", seconds from the first frame, into a span on the capture clock.
std::optional<SpanNoteTarget> parseSpan(const std::string& text, int64_t firstTsNs) {
    const auto colon = text.find(':');
    if (colon == std::string::npos) {
        return std::nullopt;
    }
    try {
        size_t used = 0;
        const double startS = std::stod(text.substr(0, colon), &used);
        if (used != colon) {
            return std::nullopt;
        }
        const std::string endText = text.substr(colon + 1);
        const double endS = std::stod(endText, &used);
        if (used != endText.size() || endS < startS || startS < 0 || endS > 1e9) {
            return std::nullopt;
        }
        return SpanNoteTarget{firstTsNs + static_cast<int64_t>(startS * 1e9), firstTsNs + static_cast<int64_t>(endS * 1e9)};
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// Applies the one change asked for; returns the exit code, kExitAnalysed when done.
int applyChange(const NotesCommandOptions& options, const Investigation& loaded, CaptureNotes& notes) {
    const CaptureAnalysis& analysis = loaded.analysis;
    const AnalysisEngine& engine = *analysis.engine;
    std::optional<NoteTarget> target;
    if (options.addPacket) {
        const uint64_t frames = engine.counters().frames;
        if (*options.addPacket == 0 || *options.addPacket > frames) {
            fmt::print(stderr, "tcpscope-cli: no frame {} (the capture has frames 1 to {})\n", *options.addPacket, frames);
            return kExitUsage;
        }
        target = packetNoteTarget(engine, analysis.inputs, *options.addPacket);
    } else if (options.addFinding) {
        if (*options.addFinding >= analysis.findings.size()) {
            fmt::print(stderr, "tcpscope-cli: no finding #{} (the capture has {})\n", *options.addFinding,
                       analysis.findings.size());
            return kExitUsage;
        }
        target = findingNoteTarget(analysis.findings[*options.addFinding], engine.connections());
    } else if (!options.addSpan.empty()) {
        target = parseSpan(options.addSpan, engine.firstTsNs());
        if (!target) {
            fmt::print(stderr, "tcpscope-cli: --add-span wants START:END in seconds from the first frame, e.g. 1.2:1.25\n");
            return kExitUsage;
        }
    } else if (!options.addSyscall.empty()) {
        SyscallNoteLookup lookup = lookUpSyscallNote(loaded.aligned(), options.addSyscall);
        if (!lookup.target) {
            fmt::print(stderr, "tcpscope-cli: {}\n", lookup.error);
            return kExitUsage;
        }
        target = std::move(*lookup.target);
    }
    if (target) {
        const uint64_t id = notes.notes.add(*target, options.text, nowNs());
        fmt::print(stderr, "added note #{} on {}\n", id, describeNoteTarget(*target));
    } else if (options.edit && !notes.notes.edit(*options.edit, options.text)) {
        fmt::print(stderr, "tcpscope-cli: no note #{} of yours to edit (comments from the capture are read-only)\n",
                   *options.edit);
        return kExitUsage;
    } else if (options.remove && !notes.notes.remove(*options.remove)) {
        fmt::print(stderr, "tcpscope-cli: no note #{} of yours to remove (comments from the capture are read-only)\n",
                   *options.remove);
        return kExitUsage;
    }
    try {
        saveCaptureNotes(notes);
    } catch (const NoteFileError& error) {
        fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
        return kExitUnreadable;
    }
    return kExitAnalysed;
}

void printNotes(const NotesCommandOptions& options, const CaptureNotes& notes, const AnalysisEngine& engine) {
    const int64_t firstTsNs = engine.firstTsNs();
    if (options.format == "json") {
        nlohmann::ordered_json document = {{"schema", "tcpscope/1"}, {"sidecar", notes.sidecarPath}};
        auto& list = document["notes"] = nlohmann::ordered_json::array();
        for (const Note& note : notes.notes.notes()) {
            list.push_back(noteToJson(note, NoteTimeForm::EpochSeconds, engine.timeOrigin()));
        }
        std::cout << jsonText(document, 2) << "\n";
        return;
    }
    fmt::print("Notes ({}), sidecar {}\n", notes.notes.size(),
               notes.sidecarPath.empty() ? "none" : displayText(notes.sidecarPath, LineBreaks::Spaces));
    std::fflush(stdout);
    writeNoteLines(std::cout, notes.notes, firstTsNs);
}

int runNotes(const CLI::App& command, NotesCommandOptions& options) {
    const bool adds = options.addPacket || options.addFinding || !options.addSpan.empty() || !options.addSyscall.empty();
    const bool changes = adds || options.edit || options.remove;
    if ((adds || options.edit) && options.text.empty()) {
        fmt::print(stderr, "tcpscope-cli: --text is needed with --add-packet, --add-finding, --add-span, --add-syscall "
                           "and --edit\n");
        return kExitUsage;
    }
    Investigation loaded;
    if (const int status = loadAnalysis(command, options.input, loaded); status != kExitAnalysed) {
        return status;
    }
    const CaptureAnalysis& analysis = loaded.analysis;
    CaptureNotes notes = openCaptureNotes(options.input.files, *analysis.engine, analysis.inputs);
    if (notes.sidecarProblem) {
        fmt::print(stderr, "tcpscope-cli: {}\n", notes.sidecarProblem->describe());
    }
    if (notes.capturesMismatch) {
        fmt::print(stderr, "tcpscope-cli: warning: {}\n", *notes.capturesMismatch);
    }
    if (changes) {
        if (const int status = applyChange(options, loaded, notes); status != kExitAnalysed) {
            return status;
        }
    }
    if (!options.writePcapng.empty()) {
        try {
            const PcapngCopyResult copy = writePcapngWithNotes(options.input.files, notes.notes.notes(), options.writePcapng);
            for (const InputProblem& problem : copy.problems) {
                fmt::print(stderr, "tcpscope-cli: {}\n", problem.describe());
            }
            fmt::print(stderr, "wrote {}: {} packets, {} notes as packet comments, {} comments kept{}\n",
                       options.writePcapng, copy.packets, copy.notesWritten, copy.commentsKept,
                       copy.notesNotPlaced > 0 ? fmt::format(", {} notes on frames not in the capture", copy.notesNotPlaced)
                                               : std::string());
        } catch (const NoteFileError& error) {
            fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
            return kExitUnreadable;
        } catch (const CaptureError& error) {
            fmt::print(stderr, "tcpscope-cli: {}\n", error.what());
            return kExitUnreadable;
        }
    }
    if (!changes && options.writePcapng.empty()) {
        printNotes(options, notes, *analysis.engine);
    }
    return kExitAnalysed;
}

}  // namespace

Subcommand addNotesCommand(CLI::App& app) {
    auto options = std::make_shared<NotesCommandOptions>();
    CLI::App* notes = app.add_subcommand(
        "notes", "list or add notes on a capture (kept beside it in FILE.tcpscope-notes.json), or write a pcapng copy "
                 "with them as packet comments");
    addAnalysisInputOptions(*notes, options->input, true);
    const char* group = "Notes";
    auto* addPacket = notes->add_option("--add-packet", options->addPacket, "add a note on frame N")->group(group);
    auto* addFinding =
        notes->add_option("--add-finding", options->addFinding, "add a note on finding #N of `analyze`")->group(group);
    auto* addSpan = notes->add_option("--add-span", options->addSpan,
                                      "add a note on a time span START:END, seconds from the first frame")
                        ->group(group);
    auto* addSyscall = notes->add_option("--add-syscall", options->addSyscall,
                                         "add a note on the system call that starts on line LINE of strace file LOG "
                                         "(LOG:LINE; the log given with --strace)")
                           ->group(group);
    auto* edit = notes->add_option("--edit", options->edit, "replace the text of note #ID")->group(group);
    auto* remove = notes->add_option("--remove", options->remove, "remove note #ID")->group(group);
    notes->add_option("--text", options->text, "the note's text")->group(group);
    auto* list = notes->add_flag("--list", options->list, "list the notes (the default without another action)")->group(group);
    notes->add_option("--write-pcapng", options->writePcapng,
                      "write a new pcapng file: every packet of the capture, the notes as packet comments")
        ->group(group);
    notes->add_option("--format", options->format, "output format of the list")
        ->check(CLI::IsMember({"text", "json"}))
        ->group(group);
    const std::vector<CLI::Option*> actions{addPacket, addFinding, addSpan, addSyscall, edit, remove, list};
    for (CLI::Option* action : actions) {
        for (CLI::Option* other : actions) {
            if (other != action) {
                action->excludes(other);
            }
        }
    }
    return {notes, [notes, options] { return runNotes(*notes, *options); }};
}

}  // namespace tcpscope::cli
