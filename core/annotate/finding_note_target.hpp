#pragma once
#include <vector>

#include "annotate/note.hpp"
#include "finding/finding.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// The identity of `finding` for a note: kind, "client -> server" of its connection (empty for a
/// host-wide finding) and start time. Stable between runs on the same capture, unlike its id.
FindingNoteTarget findingNoteTarget(const Finding& finding, const ConnectionStore& connections);
/// True if the note target names `finding`.
bool noteTargetsFinding(const FindingNoteTarget& target, const Finding& finding,
                        const ConnectionStore& connections);

}  // namespace tcpscope
