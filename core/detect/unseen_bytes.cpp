#include "detect/unseen_bytes.hpp"

#include <algorithm>

#include "tcp/seq_math.hpp"

namespace tcpscope {

void UnseenBytes::addHole(Record& record, uint32_t from, uint32_t to) {
    auto& holes = record.holes;
    if (holes.size() < kMaxHoles) {
        holes.push_back(Hole{from, to});
        return;
    }
    // Full: the two holes nearest to each other become one (the bytes between them count as unseen).
    Hole* hole = holes.begin();
    size_t nearest = 0;
    for (size_t index = 1; index + 1 < holes.size(); ++index) {
        if (hole[index + 1].from - hole[index].to < hole[nearest + 1].from - hole[nearest].to) {
            nearest = index;
        }
    }
    hole[nearest].to = hole[nearest + 1].to;
    std::copy(hole + nearest + 2, holes.end(), hole + nearest + 1);
    holes.back() = Hole{from, to};
}

void UnseenBytes::fill(Record& record, uint32_t from, uint32_t to) {
    SmallVector<Hole, 2> left;
    for (const Hole& hole : record.holes) {
        if (seq::le(to, hole.from) || seq::ge(from, hole.to)) {
            left.push_back(hole);
            continue;
        }
        if (seq::gt(from, hole.from)) {
            left.push_back(Hole{hole.from, from});
        }
        if (seq::lt(to, hole.to)) {
            left.push_back(Hole{to, hole.to});
        }
    }
    record.holes = left;
}

void UnseenBytes::count(uint32_t side, uint64_t bytes, bool started) {
    missingBytes_ += bytes;
    ++gaps_;
    if (started) {
        startedBytes_ += bytes;
        ++startedGaps_;
        startedConnections_.insert(side / 2);
    }
}

void UnseenBytes::countAcknowledged(uint32_t side, Record& record, bool started) {
    if (!record.ackSeen) {
        return;
    }
    SmallVector<Hole, 2> left;
    for (const Hole& hole : record.holes) {
        if (seq::le(hole.to, record.acked)) {
            count(side, hole.to - hole.from, started);
        } else if (seq::gt(record.acked, hole.from)) {
            count(side, record.acked - hole.from, started);  // its acknowledged part; the rest may still come
            left.push_back(Hole{record.acked, hole.to});
        } else {
            left.push_back(hole);
        }
    }
    record.holes = left;
}

bool UnseenBytes::onData(uint32_t side, bool hasRecord, uint32_t highestEnd, uint32_t seq, uint32_t end) {
    if (seq::gt(seq, highestEnd)) {
        addHole(records_[side], highestEnd, seq);
        return true;
    }
    if (hasRecord && seq::lt(seq, highestEnd)) {
        fill(records_[side], seq, seq::lt(end, highestEnd) ? end : highestEnd);
    }
    return hasRecord;
}

bool UnseenBytes::onAck(uint32_t side, bool hasRecord, uint32_t highestEnd, uint32_t ack, bool started) {
    if (!hasRecord && !seq::gt(ack, highestEnd)) {
        return false;  // nothing missing: the common case
    }
    Record& record = records_[side];
    if (!record.ackSeen || seq::gt(ack, record.acked)) {
        record.acked = ack;
        record.ackSeen = true;
        countAcknowledged(side, record, started);
    }
    return true;
}

void UnseenBytes::settle(uint32_t side, uint32_t highestEnd, bool started) {
    const auto found = records_.find(side);
    if (found == records_.end()) {
        return;
    }
    Record& record = found->second;
    countAcknowledged(side, record, started);
    if (record.ackSeen && seq::gt(record.acked, highestEnd)) {
        count(side, record.acked - highestEnd, started);  // acknowledged beyond anything captured
    }
    records_.erase(found);
}

}  // namespace tcpscope
