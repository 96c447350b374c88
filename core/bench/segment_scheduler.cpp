#include "bench/segment_scheduler.hpp"

#include <algorithm>
#include <queue>
#include <vector>

#include "bench/frame_encoder.hpp"

namespace tcpscope::bench {

namespace {

struct QueuedSegment {
    PlannedSegment segment;
    uint64_t order = 0;  // tie-breaker: planning order
    uint32_t slot = 0;   // the conversation it belongs to
};

struct LaterFirst {
    bool operator()(const QueuedSegment& a, const QueuedSegment& b) const {
        if (a.segment.tsNs != b.segment.tsNs) {
            return a.segment.tsNs > b.segment.tsNs;
        }
        return a.order > b.order;
    }
};

struct ActiveConversation {
    std::unique_ptr<Conversation> conversation;
    uint32_t outstanding = 0;  // its segments still in the heap
};

class Scheduler {
public:
    Scheduler(ConversationSource& source, PcapFileWriter& writer, uint64_t maxPackets)
        : source_(source), writer_(writer), maxPackets_(maxPackets) {}

    GeneratorStats run() {
        while (stats_.packets < maxPackets_) {
            startDueConversations();
            if (heap_.empty()) {
                break;
            }
            QueuedSegment next = heap_.top();
            heap_.pop();
            write(next.segment);
            ActiveConversation& active = active_[next.slot];
            if (--active.outstanding == 0) {
                advance(next.slot, next.segment.tsNs);
            }
        }
        stats_.bytes = writer_.bytesWritten();
        return stats_;
    }

private:
    // Starts every conversation due before the earliest planned segment, unless those running
    // are already expected to fill the budget.
    void startDueConversations() {
        while (!arrivalsClosed_) {
            const std::optional<int64_t> startNs = source_.nextStartNs();
            if (!startNs || (!heap_.empty() && *startNs > heap_.top().segment.tsNs)) {
                return;
            }
            const uint64_t expected = stats_.packets + running_ * source_.meanPacketsPerConversation() / 2;
            if (expected >= maxPackets_ && !heap_.empty()) {
                // For good: a conversation started later would begin in the past.
                arrivalsClosed_ = true;
                return;
            }
            uint32_t slot = 0;
            if (freeSlots_.empty()) {
                slot = static_cast<uint32_t>(active_.size());
                active_.emplace_back();
            } else {
                slot = freeSlots_.back();
                freeSlots_.pop_back();
            }
            active_[slot].conversation = source_.startNext();
            ++running_;
            stats_.peakConversations = std::max<uint64_t>(stats_.peakConversations, running_);
            advance(slot, *startNs);
        }
    }

    // Plans the next step of the conversation in `slot`, or retires it.
    void advance(uint32_t slot, int64_t nowNs) {
        ActiveConversation& active = active_[slot];
        step_.clear();
        if (!active.conversation->nextStep(nowNs, step_) || step_.empty()) {
            active.conversation.reset();
            freeSlots_.push_back(slot);
            --running_;
            return;
        }
        for (PlannedSegment& segment : step_) {
            // A conversation must not plan into the past; clamping keeps the file in time order.
            segment.tsNs = std::max(segment.tsNs, nowNs);
            heap_.push(QueuedSegment{segment, nextOrder_++, slot});
        }
        active.outstanding = static_cast<uint32_t>(step_.size());
    }

    void write(const PlannedSegment& segment) {
        writeFrame(segment, writer_);
        if (stats_.packets == 0) {
            stats_.firstTsNs = segment.tsNs;
        }
        stats_.lastTsNs = segment.tsNs;
        ++stats_.packets;
        if (segment.opensConnection) {
            ++stats_.connections;
        }
    }

    ConversationSource& source_;
    PcapFileWriter& writer_;
    uint64_t maxPackets_;
    GeneratorStats stats_;
    std::priority_queue<QueuedSegment, std::vector<QueuedSegment>, LaterFirst> heap_;
    std::vector<ActiveConversation> active_;
    std::vector<uint32_t> freeSlots_;
    std::vector<PlannedSegment> step_;
    uint64_t running_ = 0;
    uint64_t nextOrder_ = 0;
    bool arrivalsClosed_ = false;
};

}  // namespace

GeneratorStats runSchedule(ConversationSource& source, PcapFileWriter& writer, uint64_t maxPackets) {
    return Scheduler(source, writer, maxPackets).run();
}

}  // namespace tcpscope::bench
