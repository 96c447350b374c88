#include "report/mermaid_sequence.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "present/value_format.hpp"
#include "text/display_text.hpp"

namespace tcpscope {

std::string mermaidAlias(const SequenceDiagram& diagram, size_t lifeline) {
    const std::string& role = diagram.participants().at(lifeline).role;
    return role.empty() ? fmt::format("L{}", lifeline) : std::string(1, static_cast<char>(role[0] - 'a' + 'A'));
}

std::string mermaidEscape(const std::string& text) {
    std::string escaped;
    escaped.reserve(text.size());
    // '<' would start HTML in a label; control characters and line breaks are spaces (displayText).
    for (const char c : displayText(text, LineBreaks::Spaces)) {
        switch (c) {
            case '#': escaped += "#35;"; break;
            case ';': escaped += "#59;"; break;
            case '<': escaped += "#60;"; break;
            default: escaped += c;
        }
    }
    return escaped;
}

namespace {

// Writes one note per lifeline for the calls [from, to) of `calls`, beside the lifeline on the
// side the sequence diagram labels them (the client's on its left, the others' on their right).
void writeSyscallNotes(std::string& text, const SequenceDiagram& diagram, const MermaidOptions& options,
                       std::vector<DiagramSyscall>::const_iterator from,
                       std::vector<DiagramSyscall>::const_iterator to) {
    const size_t lifelines = diagram.participants().size();
    for (size_t lifeline = 0; lifeline < lifelines; ++lifeline) {
        std::string calls;
        size_t named = 0;
        size_t more = 0;
        for (auto call = from; call != to; ++call) {
            if (call->lifeline != lifeline) {
                continue;
            }
            if (named == options.maxCallsPerNote) {
                ++more;
                continue;
            }
            calls += (named++ == 0 ? "" : ", ") + mermaidEscape(call->label);
        }
        if (named == 0) {
            continue;
        }
        if (more > 0) {
            calls += fmt::format(", +{} more", more);
        }
        text += fmt::format("    Note {} of {}: {}\n", lifeline == 0 ? "left" : "right", mermaidAlias(diagram, lifeline),
                            calls);
    }
}

}  // namespace

std::string mermaidSequence(const SequenceDiagram& diagram, const MermaidOptions& options) {
    const auto& arrows = diagram.arrows();
    const auto& stalls = diagram.stalls();
    const size_t lifelines = diagram.participants().size();
    const std::string everyone = fmt::format("{},{}", mermaidAlias(diagram, 0), mermaidAlias(diagram, lifelines - 1));

    std::string text = "sequenceDiagram\n";
    text += fmt::format("    %% tcpscope: {} packets of connection{} {}\n", arrows.size(), diagram.isProxy() ? "s" : "",
                        diagram.isProxy() ? fmt::format("{} and {}", diagram.connections()[0], diagram.connections()[1])
                                          : fmt::format("{}", diagram.connections()[0]));
    for (size_t lifeline = 0; lifeline < lifelines; ++lifeline) {
        text += fmt::format("    participant {} as {}\n", mermaidAlias(diagram, lifeline),
                            mermaidEscape(diagram.participantTitle(lifeline)));
    }

    const size_t first = std::min(options.firstArrow, arrows.size());
    const size_t end = first + std::min(options.maxArrows, arrows.size() - first);
    if (first > 0) {
        text += fmt::format("    Note over {}: {} earlier packets not shown\n", everyone, first);
    }
    auto stall = std::lower_bound(stalls.begin(), stalls.end(), first,
                                  [](const SequenceStall& s, size_t arrow) { return s.startArrow < arrow; });
    // The calls after the arrow before the first shown, up to the last shown (or all, at the end).
    static const std::vector<DiagramSyscall> kNoCalls;
    const std::vector<DiagramSyscall>& calls = options.syscalls != nullptr ? *options.syscalls : kNoCalls;
    const auto callsUntil = [&calls](auto from, int64_t tsNs) {
        return std::upper_bound(from, calls.end(), tsNs,
                                [](int64_t ts, const DiagramSyscall& call) { return ts < call.tsNs; });
    };
    auto call = first > 0 ? callsUntil(calls.begin(), arrows[first - 1].tsNs) : calls.begin();
    if (first < end) {
        const auto before = callsUntil(call, arrows[first].tsNs);
        writeSyscallNotes(text, diagram, options, call, before);
        call = before;
    }
    for (size_t arrow = first; arrow < end; ++arrow) {
        const SequenceArrow& drawn = arrows[arrow];
        if (arrow > first && options.gapNoteNs > 0) {
            const int64_t gapNs = drawn.tsNs - arrows[arrow - 1].tsNs;
            if (gapNs > options.gapNoteNs) {
                text += fmt::format("    Note over {}: {} without packets\n", everyone, humanDuration(gapNs));
            }
        }
        text += fmt::format("    {}->>{}: {}\n", mermaidAlias(diagram, drawn.from), mermaidAlias(diagram, drawn.to),
                            mermaidEscape(diagram.arrowLabel(arrow, options.flags)));
        // A stall's note follows the arrow that began the wait, over the side that waited.
        for (; stall != stalls.end() && stall->startArrow == arrow; ++stall) {
            text += fmt::format("    Note over {}: {}\n", mermaidAlias(diagram, stall->lifeline),
                                mermaidEscape(stall->text));
        }
        // The calls up to the next arrow (after the last arrow of the diagram: every call left).
        const auto next = arrow + 1 < arrows.size() ? callsUntil(call, arrows[arrow + 1].tsNs) : calls.end();
        if (arrow + 1 < end || end == arrows.size()) {
            writeSyscallNotes(text, diagram, options, call, next);
            call = next;
        }
    }
    if (end < arrows.size()) {
        text += fmt::format("    Note over {}: {} more packets not shown (limit of {} arrows)\n", everyone,
                            arrows.size() - end, options.maxArrows);
    }
    return text;
}

}  // namespace tcpscope
