#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "tcp/analysis_flags.hpp"

namespace tcpscope {

/// What a person reads for the flag: Wireshark's words (its expert infos and Info column), e.g.
/// "Previous segment not captured".
std::string_view analysisFlagWords(AnalysisFlag flag);

/// How Wireshark's Expert Info ranks the flag: a sequence problem worth a look (Warning: lost or
/// out-of-order segments, a zero or full window), a note (retransmissions, duplicate ACKs,
/// keep-alives, probes, reused ports) or chat (a window update).
enum class ExpertSeverity : uint8_t { Warning, Note, Chat };
ExpertSeverity analysisFlagSeverity(AnalysisFlag flag);
/// "Warning", "Note" or "Chat", as Wireshark names them.
std::string_view expertSeverityName(ExpertSeverity severity);

/// How a set of flags is named: by Wireshark's field names ("lost_segment, window_full", what a
/// filter or a script matches) or in its words ("Previous segment not captured, Window full").
enum class FlagNaming : uint8_t { FieldNames, Words };

/// The flags set in `flags`, comma separated, named as `naming` says; a retransmission beside its
/// fast or spurious kind is named once.
std::string analysisFlagsText(AnalysisFlags flags, FlagNaming naming);

}  // namespace tcpscope
