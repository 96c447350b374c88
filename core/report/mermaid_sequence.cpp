#include "report/mermaid_sequence.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tcpscope {

std::string mermaidAlias(const SequenceDiagram& diagram, size_t lifeline) {
    const std::string& role = diagram.participants().at(lifeline).role;
    return role.empty() ? fmt::format("L{}", lifeline) : std::string(1, static_cast<char>(role[0] - 'a' + 'A'));
}

std::string mermaidEscape(const std::string& text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '#': escaped += "#35;"; break;
            case ';': escaped += "#59;"; break;
            case '\n':
            case '\r': escaped += ' '; break;
            default: escaped += c;
        }
    }
    return escaped;
}

std::string humanDuration(int64_t durationNs) {
    const double ms = static_cast<double>(durationNs) / 1e6;
    if (ms < 1) {
        return fmt::format("{:.3f} ms", ms);
    }
    if (ms < 1000) {
        return fmt::format("{:.1f} ms", ms);
    }
    return fmt::format("{:.2f} s", ms / 1000);
}

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
    for (size_t arrow = first; arrow < end; ++arrow) {
        const SequenceArrow& drawn = arrows[arrow];
        if (arrow > first && options.gapNoteNs > 0) {
            const int64_t gapNs = drawn.tsNs - arrows[arrow - 1].tsNs;
            if (gapNs > options.gapNoteNs) {
                text += fmt::format("    Note over {}: {} without packets\n", everyone, humanDuration(gapNs));
            }
        }
        text += fmt::format("    {}->>{}: {}\n", mermaidAlias(diagram, drawn.from), mermaidAlias(diagram, drawn.to),
                            mermaidEscape(diagram.arrowLabel(arrow)));
        // A stall's note follows the arrow that began the wait, over the side that waited.
        for (; stall != stalls.end() && stall->startArrow == arrow; ++stall) {
            text += fmt::format("    Note over {}: {}\n", mermaidAlias(diagram, stall->lifeline),
                                mermaidEscape(stall->text));
        }
    }
    if (end < arrows.size()) {
        text += fmt::format("    Note over {}: {} more packets not shown (limit of {} arrows)\n", everyone,
                            arrows.size() - end, options.maxArrows);
    }
    return text;
}

}  // namespace tcpscope
