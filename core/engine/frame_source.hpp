#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/analysis_engine.hpp"

namespace tcpscope {

/// The frames of one analysis in the order they are analysed (files merged in time order, the
/// packets a live capture queued, the frames chosen from several capture points), handed to the
/// frame driver (driveFrames) a run at a time, so that the driver makes one virtual call per run,
/// not per frame. A source reads its frames; the driver decides how the engine analyses them.
class FrameSource {
public:
    virtual ~FrameSource() = default;

    /// Decodes its next frames into `frames` (AnalysisEngine::decode, with each frame's input
    /// index), from the front, up to its size. Returns how many: fewer than asked only at its end.
    /// May be called on another thread than the engine's (the driver's reading thread).
    virtual size_t decodeNext(const AnalysisEngine& engine, std::span<PreparedFrame> frames) = 0;
    /// Pushes its next frames into `engine` (AnalysisEngine::push), up to `count` of them; for an
    /// engine that needs each frame's bytes (a filter) or analyses frame by frame (it retires
    /// connections). Returns how many: fewer than asked only at its end.
    virtual size_t pushNext(AnalysisEngine& engine, size_t count) = 0;
    /// Input bytes consumed so far, for the progress (LoadProgress::bytesDone).
    [[nodiscard]] virtual uint64_t bytesConsumed() const = 0;
};

}  // namespace tcpscope
