#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "present/sequence_diagram.hpp"
#include "present/sequence_syscalls.hpp"

namespace tcpscope {

/// What the Mermaid text of a sequence diagram includes.
struct MermaidOptions {
    size_t maxArrows = 500;           ///< arrows written at most; a note says how many were left out
    size_t firstArrow = 0;            ///< start here (e.g. a little before a finding)
    int64_t gapNoteNs = 200'000'000;  ///< a note for every silence longer than this (0: none)
    /// The system calls the sequence diagram draws beside the lifelines (diagramSyscalls()), or null: each run
    /// of calls of one lifeline between two arrows becomes one note beside it, after the arrow
    /// before them ("Note right of P: recvfrom 163 B, sendto 128 B, sendto 35 B").
    const std::vector<DiagramSyscall>* syscalls = nullptr;
    size_t maxCallsPerNote = 12;  ///< calls named in one note; the rest are counted ("+3 more")
    FlagNaming flags = FlagNaming::FieldNames;  ///< the analysis flags on the arrows (the report: Words)
};

/// The Mermaid `sequenceDiagram` text of `diagram`: its participants, one arrow per packet with the
/// sequence diagram's label ("C->>S: [P.] seq=1 ack=1 len=128"), a note over the waiting side at the start of
/// each stall ("Note over P: 35 bytes held by Nagle for 40.1 ms until the delayed ACK"), notes for
/// long silences, the system calls beside their lifelines when given, and a last note when the
/// arrow limit cut the diagram.
std::string mermaidSequence(const SequenceDiagram& diagram, const MermaidOptions& options = {});

/// The short Mermaid name of a lifeline: C, S, or C, P, S for a proxy.
std::string mermaidAlias(const SequenceDiagram& diagram, size_t lifeline);

/// Text made safe for a Mermaid message or note: valid UTF-8, `#`, `;` and `<` as entity codes,
/// line breaks and other control characters as spaces.
std::string mermaidEscape(const std::string& text);

}  // namespace tcpscope
