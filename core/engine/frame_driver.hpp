#pragma once
#include <cstdint>
#include <functional>

#include "engine/analysis_engine.hpp"
#include "engine/frame_source.hpp"
#include "engine/load_progress.hpp"

namespace tcpscope {

/// Called on the driving thread between two batches of frames, when the engine's results and the
/// observers' (the findings) are at the same frame and may be read (to publish partial results
/// while a big file loads): every 4,096 frames on one thread; when the work is split over two
/// threads, after the first 4,096 frames, then at gaps that double up to 262,144 frames (each
/// pauses the reading thread until the analysing one has caught up).
using LoadCheckpoint = std::function<void(const AnalysisEngine& engine)>;

/// What the frame driver reports to and may do. Every member may be left empty.
struct DriveControls {
    LoadProgress* progress = nullptr;  ///< bytes consumed (FrameSource::bytesConsumed) and frames analysed
    const StopToken* stop = nullptr;   ///< ends the drive after the run of frames in course
    LoadCheckpoint checkpoint;
    /// False: every frame is analysed on the calling thread (a live capture's batches, each a
    /// fraction of a second of packets, are not worth a thread each).
    bool readingThreadAllowed = true;
};

/// The one way frames reach the detectors: takes every frame of `source` through `engine` (and
/// its observers), in order, until the source ends or a stop. It chooses how, with the same
/// results each way: frame by frame (AnalysisEngine::push) for an engine with a filter or one that
/// retires connections; otherwise decoded and tracked a run at a time, on a reading thread while
/// this thread hands the tracked frames to the observers when a second thread is allowed
/// (secondThreadAllowed), or all on this thread. Does not call AnalysisEngine::finish(). An
/// exception of the source or of an observer ends the drive and is rethrown here. Returns the
/// frames analysed.
uint64_t driveFrames(FrameSource& source, AnalysisEngine& engine, const DriveControls& controls = {});

}  // namespace tcpscope
