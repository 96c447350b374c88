#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "finding/finding_kind.hpp"

namespace tcpscope {

/// A note pinned to one packet: its frame number as shown (1-based over all opened files, as in
/// Wireshark) and the name of the capture file the frame came from.
struct PacketNoteTarget {
    uint32_t frame = 0;
    std::string file;
    int64_t tsNs = 0;  ///< the packet's capture time, for drawing the note without a lookup
};

/// A note pinned to one system call: the strace log file and the line the call starts on.
struct SyscallNoteTarget {
    std::string logFile;
    uint32_t line = 0;
    int64_t tsNs = 0;  ///< the call's time on the capture clock when the note was made
};

/// A note pinned to a finding, by what identifies it across runs (not its position in a list):
/// the kind, the connection's endpoints ("client -> server", empty for a host-wide finding) and
/// when it started.
struct FindingNoteTarget {
    FindingKind kind = FindingKind::DelayedAckStall;
    std::string connection;
    int64_t tsNs = 0;
};

/// A note on a time span [startNs, endNs] of the capture clock.
struct SpanNoteTarget {
    int64_t startNs = 0;
    int64_t endNs = 0;
};

/// What a note is pinned to.
using NoteTarget = std::variant<PacketNoteTarget, SyscallNoteTarget, FindingNoteTarget, SpanNoteTarget>;

/// Where a note comes from: written by the user (saved in the sidecar), or a comment already in
/// the pcapng capture (shown read-only, never written to the sidecar).
enum class NoteOrigin : uint8_t { User, Capture };

/// One note. Notes carry no author; `createdNs` is wall-clock time (Unix epoch).
struct Note {
    uint64_t id = 0;
    std::string text;
    int64_t createdNs = 0;
    NoteTarget target;
    NoteOrigin origin = NoteOrigin::User;

    [[nodiscard]] bool readOnly() const { return origin == NoteOrigin::Capture; }
};

/// Longest note text: a pcapng option holds at most 65535 bytes, and a note has to fit one.
inline constexpr size_t kMaxNoteTextBytes = 65000;

/// "packet", "syscall", "finding" or "span".
std::string_view noteTargetTypeName(const NoteTarget& target);
/// "user" or "capture".
std::string_view noteOriginName(NoteOrigin origin);
/// Where the note points on the capture clock: the packet's, call's or finding's time, a span's start.
int64_t noteAnchorNs(const NoteTarget& target);
/// The end of a span, or the anchor for the other targets.
int64_t noteEndNs(const NoteTarget& target);
/// A short label of the target for lists: "frame 12", "proxy.strace:40", "delayed_ack_stall 10.0.0.1:5 -> ...",
/// "span 40.1 ms".
std::string describeNoteTarget(const NoteTarget& target);
/// True if both targets point to the same thing.
bool sameNoteTarget(const NoteTarget& a, const NoteTarget& b);

}  // namespace tcpscope
