#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "annotate/note.hpp"
#include "capture/capture_error.hpp"

namespace tcpscope {

/// What writing a pcapng copy did.
struct PcapngCopyResult {
    uint64_t packets = 0;        ///< frames copied
    uint64_t notesWritten = 0;   ///< packet notes written as comments
    uint64_t commentsKept = 0;   ///< comments the original packets already had
    uint64_t notesNotPlaced = 0; ///< packet notes whose frame is not in the capture
    std::vector<InputProblem> problems;  ///< problems in the inputs (a cut file): frames before them were copied
};

/// Writes `outPath`, a new pcapng file holding every frame of `capturePaths` merged in time order
/// (so frame N is the frame tcpscope and Wireshark number N), with its bytes, lengths and time
/// unchanged, its comment kept, and the text of each user note pinned to it added as one more
/// opt_comment. pcap inputs are converted: one interface per input interface, microsecond inputs
/// stay in microseconds. Section comments are kept. The file is written under a temporary name
/// and renamed when complete; an output that is one of the inputs is refused, so an original is
/// never modified. Throws NoteFileError (output) or CaptureError (an input that cannot be opened).
PcapngCopyResult writePcapngWithNotes(const std::vector<std::string>& capturePaths, const std::vector<Note>& notes,
                                      const std::string& outPath);

}  // namespace tcpscope
