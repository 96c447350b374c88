#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "recorded/recorded_call.hpp"

namespace tcpscope {

/// pcapng Custom Block (0x00000BAD, "may be copied"): tshark and Wireshark show it as a custom block and
/// read on; tcpscope reads only those with its PEN.
inline constexpr uint32_t kCustomBlockType = 0x00000BAD;
/// The Private Enterprise Number tcpscope writes in its custom blocks: 32473, the number IANA
/// reserves for documentation and examples (RFC 5612), as tcpscope has none of its own.
inline constexpr uint32_t kTcpscopePen = 32473;
/// The section header's shb_userappl of a recorded file: only such files are scanned for calls.
inline constexpr std::string_view kRecordApplication = "tcpscope-cli record";
/// Bytes of one call in a calls block (the layout of struct tcpscope_syscall_event).
inline constexpr size_t kCallRecordBytes = 120;

/// The kinds of tcpscope's custom blocks (the u16 after the PEN).
enum class RecordBlockKind : uint16_t { Clock = 1, Calls = 2, Summary = 3 };

/// The custom data (after the PEN) of a clock block: one sample.
std::vector<uint8_t> encodeClockBlock(const ClockSample& sample);
/// The custom data of a summary block: events recorded and lost.
std::vector<uint8_t> encodeSummaryBlock(uint64_t recordedEvents, uint64_t lostEvents);
/// The custom data of a calls block from raw events as the BPF program wrote them (each
/// kCallRecordBytes bytes, little-endian), `count` of them.
std::vector<uint8_t> encodeCallsBlock(std::span<const uint8_t> events, uint32_t count);

/// Decodes one event of kCallRecordBytes bytes.
RecordedCall decodeCall(std::span<const uint8_t> bytes);

/// Adds what the custom data of one of tcpscope's blocks says to `calls`. False (nothing added,
/// `problem` set) when the data is too short, of an unknown kind or version.
bool readRecordBlock(std::span<const uint8_t> data, RecordedCalls& calls, std::string& problem);

}  // namespace tcpscope
