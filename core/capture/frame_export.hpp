#pragma once
// Chosen frames of one capture file written to a new file: Wireshark's "Export Specified Packets"
// (displayed ones) and `tshark -r IN -Y EXPR -w OUT`.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "capture/capture_error.hpp"
#include "capture/capture_output.hpp"  // CaptureWriteError

namespace tcpscope {

/// What exporting frames wrote.
struct FrameExportResult {
    uint64_t packets = 0;                ///< frames written
    std::string container;               ///< "pcap", "pcap-ns" or "pcapng": the format of the file written
    std::vector<InputProblem> problems;  ///< problems in the input (a cut file); frames before them were written
};

/// Writes the frames numbered `frames` (1-based, increasing: every frame of the file counts, as
/// in Wireshark) of the capture `capturePath` to `outPath`, each with its bytes, captured and
/// original lengths, link type and time unchanged. The output keeps the input's format: a pcap
/// input gives a pcap file of the same timestamp resolution and snapshot length, a pcapng input a
/// pcapng file (one interface per interface that a written frame came from, the frame comments
/// and section comments kept). The file is written under a temporary name and renamed when
/// complete; an output that is the input is refused. Throws CaptureError (the input cannot be
/// opened) or CaptureWriteError (the output cannot be written, or is the input).
FrameExportResult exportFrames(const std::string& capturePath, std::span<const uint32_t> frames,
                               const std::string& outPath);

}  // namespace tcpscope
