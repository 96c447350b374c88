#include "tcp/connection_table.hpp"

#include <algorithm>

namespace tcpscope {

namespace {

bool isPlainSyn(const TcpSegment& segment) {
    return (segment.flags & (tcpflag::kSyn | tcpflag::kAck)) == tcpflag::kSyn;
}

// Which side opened the connection: the sender of a SYN, the receiver of a SYN-ACK, otherwise
// (capture started mid-stream) the side with the higher port, which is usually the ephemeral one.
bool sourceIsClient(const TcpSegment& segment) {
    if ((segment.flags & tcpflag::kSyn) != 0) {
        return (segment.flags & tcpflag::kAck) == 0;
    }
    if (segment.source.port != segment.destination.port) {
        return segment.source.port > segment.destination.port;
    }
    return true;
}

}  // namespace

bool TupleNumbering::v4TupleOf(const Endpoint& source, const Endpoint& destination, V4Tuple& tuple,
                               bool& sourceIsLow) {
    uint32_t sourceAddress = 0;
    uint32_t destinationAddress = 0;
    if (!source.address.v4Value(sourceAddress) || !destination.address.v4Value(destinationAddress)) {
        return false;
    }
    // The same order as FlowKey's (address, then port), on 48-bit numbers.
    const uint64_t sourceKey = (uint64_t{sourceAddress} << 16) | source.port;
    const uint64_t destinationKey = (uint64_t{destinationAddress} << 16) | destination.port;
    sourceIsLow = sourceKey <= destinationKey;
    const uint64_t low = sourceIsLow ? sourceKey : destinationKey;
    const uint64_t high = sourceIsLow ? destinationKey : sourceKey;
    tuple = V4Tuple{static_cast<uint32_t>(low >> 16), static_cast<uint32_t>(high >> 16),
                    static_cast<uint32_t>(((low & 0xffff) << 16) | (high & 0xffff))};
    return true;
}

void TupleNumbering::prefetch(const Endpoint& source, const Endpoint& destination) const {
    V4Tuple tuple{};
    bool sourceIsLow = true;
    if (v4TupleOf(source, destination, tuple, sourceIsLow)) {
        v4Numbers_.prefetch(tuple);
    }
}

TupleRef TupleNumbering::number(const Endpoint& source, const Endpoint& destination) {
    TupleRef ref;
    const auto next = static_cast<uint32_t>(size());
    V4Tuple v4Tuple{};
    if (v4TupleOf(source, destination, v4Tuple, ref.sourceIsLow)) {
        ref.tuple = v4Numbers_.numberOf(v4Tuple, next);
        return ref;
    }
    const FlowKey key = FlowKey::fromSegment(source, destination, ref.sourceIsLow);
    ref.tuple = otherNumbers_.try_emplace(key, next).first->second;
    return ref;
}

void ConnectionTable::prefetchLive(const Latest& latest) const {
    if (latest.id == kNoConnection) {
        return;
    }
    connections_.prefetch(latest.id);
    if (latest.sequence != kNoSequence) {
        sequences_.prefetch(latest.sequence);
    }
}


void ConnectionTable::retire(uint32_t id) {
    // An earlier generation gave its state back when the newer one took its tuple.
    const uint32_t tuple = connections_[id].tuple;
    if (tuple < latestByTuple_.size() && latestByTuple_[tuple].id == id) {
        releaseSequence(latestByTuple_[tuple]);
        latestByTuple_[tuple].id = kNoConnection;
    }
}

ConnectionTable::Latest* ConnectionTable::holderOf(const Connection& connection) {
    if (connection.tuple >= latestByTuple_.size()) {
        return nullptr;
    }
    Latest& latest = latestByTuple_[connection.tuple];
    return latest.id == connection.id && latest.sequence != kNoSequence ? &latest : nullptr;
}

uint32_t ConnectionTable::takeSequence() {
    if (freeSequences_.empty()) {
        sequences_.append();
        return static_cast<uint32_t>(sequences_.size() - 1);
    }
    const uint32_t slot = freeSequences_.back();
    freeSequences_.pop_back();
    // Reset here, not when given back: the line is written now anyway, and by then it had left the cache.
    sequences_[slot] = {};
    return slot;
}

void ConnectionTable::releaseSequence(Latest& latest) {
    if (latest.sequence != kNoSequence) {
        freeSequences_.push_back(latest.sequence);
        latest.sequence = kNoSequence;
    }
}

uint32_t ConnectionTable::reviveSequence(const Connection& connection) {
    const uint32_t slot = takeSequence();
    std::array<SequenceState, 2>& sides = sequences_[slot];
    for (size_t side = 0; side < sides.size(); ++side) {
        const SequenceSummary& summary = connection.sequence[side];
        SequenceState& state = sides[side];
        state.baseSeq = summary.baseSeq;
        state.nextSeq = summary.nextSeq;
        state.maxSeqToBeAcked = summary.nextSeq;
        state.windowScale = summary.windowScale;
        state.baseSeqSet = true;
    }
    return slot;
}

void ConnectionTable::releaseClosed(int64_t nowNs) {
    // A connection whose packets went on for a while after its close (more than the last ACKs)
    // waits again at the back, a few per call, so that it does not hold up those behind it.
    constexpr int64_t kAfterCloseNs = 1'000'000'000;
    constexpr int kMaxRequeued = 4;
    int requeued = 0;
    while (!closed_.empty()) {
        const Closed noted = closed_.front();
        if (nowNs - noted.closeTsNs < kClosedSequenceAgeNs) {
            // Nothing is due, nor behind it (closed later): decided without reading the record,
            // out of the cache by now, on nearly every call.
            return;
        }
        const Connection& connection = connections_[noted.id];
        Latest* holder = connection.closeTsNs == noted.closeTsNs ? holderOf(connection) : nullptr;
        if (holder == nullptr) {
            closed_.pop_front();  // reopened (noted again if it closed again), or released already
            continue;
        }
        if (nowNs - connection.lastTsNs < kClosedSequenceAgeNs) {
            if (connection.lastTsNs - connection.closeTsNs < kAfterCloseNs || ++requeued > kMaxRequeued) {
                return;
            }
            closed_.pop_front();
            closed_.push_back(noted);
            continue;
        }
        closed_.pop_front();
        releaseSequence(*holder);
    }
}

Connection& ConnectionTable::create(const TcpSegment& segment, uint32_t tuple, bool sourceIsLow, int64_t tsNs,
                                    uint32_t frame) {
    Connection& connection = connections_.append();
    connection.id = static_cast<uint32_t>(connections_.size() - 1);
    connection.tuple = tuple;
    const bool sourceClient = sourceIsClient(segment);
    connection.client = sourceClient ? segment.source : segment.destination;
    connection.server = sourceClient ? segment.destination : segment.source;
    connection.clientIsLow = sourceClient == sourceIsLow;
    connection.midstream = (segment.flags & tcpflag::kSyn) == 0;
    connection.state = connection.midstream ? ConnectionState::Established : ConnectionState::SynSent;
    connection.firstTsNs = tsNs;
    connection.lastTsNs = tsNs;
    connection.firstFrame = frame;
    connection.lastFrame = frame;
    return connection;
}

ConnectionLookup ConnectionTable::lookup(const TcpSegment& segment, const TupleRef& tuple, int64_t tsNs,
                                         uint32_t frame) {
    const bool sourceIsLow = tuple.sourceIsLow;
    if (tuple.tuple >= latestByTuple_.size()) {
        // Numbers come in order of first sight; a gap is only possible if frames were prepared
        // and then not analysed (a stopped load).
        latestByTuple_.growTo(size_t{tuple.tuple} + 1);
    }
    Latest& latest = latestByTuple_[tuple.tuple];
    ConnectionLookup result;
    if (latest.id == kNoConnection) {
        Connection& connection = create(segment, tuple.tuple, sourceIsLow, tsNs, frame);
        latest = Latest{connection.id, takeSequence()};
        result.connection = &connection;
        result.created = true;
    } else {
        // The record and the sequence state are both read below and by the tracker: asking for
        // all their lines at once makes their cache misses overlap instead of following each other.
        prefetchLive(latest);
        Connection* existing = &connections_[latest.id];
        const Side sender = (sourceIsLow == existing->clientIsLow) ? Side::Client : Side::Server;
        // A SYN that does not repeat the sender's first sequence number is a new connection
        // on the same tuple; a SYN with the same number is a retransmission. A plain SYN long
        // after the connection closed (its sequence state released) is always a new one.
        bool newGeneration = false;
        if (latest.sequence == kNoSequence) {
            newGeneration = isPlainSyn(segment);
            if (!newGeneration) {
                latest.sequence = reviveSequence(*existing);
            }
        } else if (isPlainSyn(segment)) {
            const SequenceState& senderSequence = sequences_[latest.sequence][sideIndex(sender)];
            newGeneration = senderSequence.baseSeqSet && segment.seq != senderSequence.baseSeq;
        }
        if (newGeneration) {
            // The earlier generation is never looked up again: its state goes (and its slot, still
            // in the cache, is the new one's).
            releaseSequence(latest);
            const uint32_t earlierId = existing->id;
            Connection& connection = create(segment, tuple.tuple, sourceIsLow, tsNs, frame);
            const Connection& earlier = connections_[earlierId];
            connection.reusedFrom = earlierId;
            connection.reusedEarlierClosed = earlier.closeTsNs != kNoTime;
            connection.reuseGapNs = tsNs - (connection.reusedEarlierClosed ? earlier.closeTsNs : earlier.lastTsNs);
            latest = Latest{connection.id, takeSequence()};
            result.connection = &connection;
            result.created = true;
            result.newGeneration = true;
        } else {
            result.connection = existing;
        }
    }
    result.sequence = &sequences_[latest.sequence];
    Connection& connection = *result.connection;
    result.sender = (sourceIsLow == connection.clientIsLow) ? Side::Client : Side::Server;
    return result;
}

}  // namespace tcpscope
