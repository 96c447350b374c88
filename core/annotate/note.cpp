#include "annotate/note.hpp"

#include <fmt/format.h>

#include "annotate/overloaded.hpp"

namespace tcpscope {

std::string_view noteTargetTypeName(const NoteTarget& target) {
    return std::visit(Overloaded{[](const PacketNoteTarget&) { return std::string_view("packet"); },
                                 [](const SyscallNoteTarget&) { return std::string_view("syscall"); },
                                 [](const FindingNoteTarget&) { return std::string_view("finding"); },
                                 [](const SpanNoteTarget&) { return std::string_view("span"); }},
                      target);
}

std::string_view noteOriginName(NoteOrigin origin) { return origin == NoteOrigin::Capture ? "capture" : "user"; }

int64_t noteAnchorNs(const NoteTarget& target) {
    return std::visit(Overloaded{[](const SpanNoteTarget& span) { return span.startNs; },
                                 [](const auto& pinned) { return pinned.tsNs; }},
                      target);
}

int64_t noteEndNs(const NoteTarget& target) {
    if (const auto* span = std::get_if<SpanNoteTarget>(&target)) {
        return span->endNs;
    }
    return noteAnchorNs(target);
}

std::string describeNoteTarget(const NoteTarget& target) {
    return std::visit(
        Overloaded{[](const PacketNoteTarget& packet) { return fmt::format("frame {}", packet.frame); },
                   [](const SyscallNoteTarget& call) { return fmt::format("{}:{}", call.logFile, call.line); },
                   [](const FindingNoteTarget& finding) {
                       const std::string_view kind = findingKindName(finding.kind);
                       return finding.connection.empty() ? std::string(kind)
                                                         : fmt::format("{} {}", kind, finding.connection);
                   },
                   [](const SpanNoteTarget& span) {
                       return fmt::format("span {:.1f} ms", static_cast<double>(span.endNs - span.startNs) / 1e6);
                   }},
        target);
}

bool sameNoteTarget(const NoteTarget& a, const NoteTarget& b) {
    if (a.index() != b.index()) {
        return false;
    }
    return std::visit(
        Overloaded{[&](const PacketNoteTarget& packet) {
                       const auto& other = std::get<PacketNoteTarget>(b);
                       return packet.frame == other.frame && packet.file == other.file;
                   },
                   [&](const SyscallNoteTarget& call) {
                       const auto& other = std::get<SyscallNoteTarget>(b);
                       return call.line == other.line && call.logFile == other.logFile;
                   },
                   [&](const FindingNoteTarget& finding) {
                       const auto& other = std::get<FindingNoteTarget>(b);
                       return finding.tsNs == other.tsNs && finding.kind == other.kind &&
                              finding.connection == other.connection;
                   },
                   [&](const SpanNoteTarget& span) {
                       const auto& other = std::get<SpanNoteTarget>(b);
                       return span.startNs == other.startNs && span.endNs == other.endNs;
                   }},
        a);
}

}  // namespace tcpscope
