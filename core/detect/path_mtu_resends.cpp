#include "detect/path_mtu_resends.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "detect/support/evidence_json.hpp"
#include "tcp/seq_math.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;
// Bounds on what a capture full of messages (a flood, forged ones) can make us keep.
constexpr size_t kMaxDirections = 65'536;
constexpr size_t kMaxEntriesPerDirection = 16;  // messages and episodes: the newest
constexpr size_t kMaxListedEpisodes = 100;      // evidence keeps the first ones; counts keep all

double toMs(int64_t ns) {
    return static_cast<double>(ns) / kNsPerMs;
}

template <typename Entry>
void keepNewest(std::vector<Entry>& entries, Entry entry) {
    if (entries.size() >= kMaxEntriesPerDirection) {
        entries.erase(entries.begin());
    }
    entries.push_back(entry);
}

}  // namespace

void PathMtuResends::countMessage(Totals& totals, const Message& message) {
    ++totals.messages;
    if (message.nextHopMtu != 0) {
        totals.smallestMtu = std::min(totals.smallestMtu, message.nextHopMtu);
    }
    totals.largestPacketBytes = std::max(totals.largestPacketBytes, message.quotedPacketBytes);
}

void PathMtuResends::add(const PacketTooBigEvent& event) {
    const auto key = std::make_pair(event.quoted.source, event.quoted.destination);
    auto found = directions_.find(key);
    if (found == directions_.end()) {
        if (directions_.size() >= kMaxDirections) {
            return;
        }
        found = directions_.try_emplace(key).first;
    }
    Direction& direction = found->second;
    Message message{event.tsNs,       event.frame, event.message.nextHopMtu, event.message.quotedPacketBytes,
                    event.quoted.seq, false,       event.message.reporter};
    // A router answers every packet it refuses: a message about data an episode is resending already
    // belongs to that episode.
    for (const Episode& episode : direction.episodes) {
        if (seq::ge(message.quotedSeq, episode.fromSeq) && seq::lt(message.quotedSeq, episode.toSeq)) {
            message.explained = true;
            Totals& totals = totals_[episode.totals];
            countMessage(totals, message);
            log_.changed(totals.findingId);
            break;
        }
    }
    keepNewest(direction.messages, message);
}

uint32_t PathMtuResends::totalsOf(const ConnectionSnapshot& connection, Side sender, int64_t startNs) {
    const auto [found, isNew] =
        totalsByKey_.try_emplace(connection.id * 2 + sideIndex(sender), static_cast<uint32_t>(totals_.size()));
    if (isNew) {
        Totals& totals = totals_.emplace_back();
        totals.sender = sender;
        totals.senderEndpoint = connection.endpoint(sender);
        totals.receiverEndpoint = connection.endpoint(otherSide(sender));
        totals.firstTsNs = startNs;
        Finding finding;
        finding.kind = FindingKind::PathMtu;
        finding.severity = Severity::Info;
        finding.connection = connection.id;
        finding.tsNs = startNs;
        totals.findingId = log_.add(std::move(finding), this, found->second);
    }
    return found->second;
}

bool PathMtuResends::claim(const SegmentEvent& event, const Resend& resend) {
    if (directions_.empty()) {
        return false;
    }
    const auto found = directions_.find(std::make_pair(event.segment.source, event.segment.destination));
    if (found == directions_.end()) {
        return false;
    }
    Direction& direction = found->second;
    const uint32_t seq = event.segment.seq;
    const Episode* episode = nullptr;
    for (const Episode& underWay : direction.episodes) {
        if (seq::ge(seq, underWay.fromSeq) && seq::lt(seq, underWay.toSeq)) {
            episode = &underWay;
            break;
        }
    }
    if (episode == nullptr) {
        // The newest message not yet explained that came while this data was in flight starts one.
        auto message = direction.messages.rbegin();
        while (message != direction.messages.rend() &&
               (message->explained || message->tsNs > event.tsNs || message->tsNs <= resend.sentNs)) {
            ++message;
        }
        if (message == direction.messages.rend()) {
            return false;
        }
        message->explained = true;
        const uint32_t toSeq = seq::gt(resend.highestEnd, seq) ? resend.highestEnd : seq + 1;
        const uint32_t totalsIndex = totalsOf(event.connection, event.sender, resend.sentNs);
        Totals& totals = totals_[totalsIndex];
        if (totals.messages == 0) {
            totals.reporter = message->reporter;
        }
        countMessage(totals, *message);
        const int64_t waitNs = event.tsNs - resend.sentNs;
        const int64_t reactionNs = event.tsNs - message->tsNs;
        totals.lostNs += waitNs;
        totals.waits.add(event.connection.id, resend.sentNs, event.tsNs);
        totals.longestNs = std::max(totals.longestNs, waitNs);
        totals.slowestReactionNs = std::max(totals.slowestReactionNs, reactionNs);
        uint32_t listed = kNotListed;
        if (totals.listed.size() < kMaxListedEpisodes) {
            listed = static_cast<uint32_t>(totals.listed.size());
            const uint32_t baseSeq = event.connection.sequence[sideIndex(event.sender)].baseSeq;
            totals.listed.push_back(Listed{resend.sentFrame, message->frame, event.frame, resend.sentNs, waitNs,
                                           reactionNs, seq - baseSeq, toSeq - seq, 0, resend.sentCaptured});
        }
        ++totals.episodes;
        keepNewest(direction.episodes, Episode{seq, toSeq, totalsIndex, listed});
        episode = &direction.episodes.back();
    }
    Totals& totals = totals_[episode->totals];
    ++totals.resends;
    if (episode->listed != kNotListed) {
        ++totals.listed[episode->listed].resends;
    }
    log_.changed(totals.findingId);
    return true;
}

void PathMtuResends::measure(uint32_t record, Finding& finding) const {
    measure(totals_[record], finding);
}

void PathMtuResends::measure(const Totals& totals, Finding& finding) const {
    finding.durationMs = toMs(totals.lostNs);
    setImpact(finding, totals.waits);
    // Acting on the message at once costs one round trip to the router; waiting for the timer
    // after it is the sender not hearing (or not believing) it.
    const bool waitedForTimer =
        totals.slowestReactionNs >= static_cast<int64_t>(options_.retransmissionStallMinMs * kNsPerMs);
    finding.severity = waitedForTimer ? Severity::Warning : Severity::Info;
}

// The evidence is written whatever the detail: such findings are few and rarely grow.
void PathMtuResends::describe(uint32_t record, Finding& finding, Detail /*detail*/) const {
    const Totals& totals = totals_[record];
    measure(totals, finding);
    finding.frames.clear();
    finding.spans.clear();
    finding.spans.reserve(totals.listed.size());
    finding.totalSpans = totals.episodes;
    finding.waitingSide = totals.sender;
    finding.nextHopMtu.reset();
    if (totals.smallestMtu != UINT32_MAX) {  // a router said what its next hop takes
        finding.nextHopMtu = totals.smallestMtu;
    }
    nlohmann::json::array_t instances;
    for (const Listed& listed : totals.listed) {
        finding.frames.insert(finding.frames.end(), {listed.refusedFrame, listed.messageFrame, listed.resentFrame});
        // One per episode, from the refused data's transmission to its first smaller resend: the time
        // the sender's data waited.
        finding.spans.push_back({.startNs = listed.refusedSentNs,
                                 .endNs = listed.refusedSentNs + listed.waitNs,
                                 .connection = finding.connection,
                                 .side = totals.sender,
                                 .frames = {{FrameRole::RefusedSegment, listed.refusedFrame},
                                            {FrameRole::TooBigMessage, listed.messageFrame},
                                            {FrameRole::SmallerResend, listed.resentFrame}},
                                 .bytes = listed.bytes});
        nlohmann::json::object_t instance;
        instance.emplace("frames", frameList({listed.refusedFrame, listed.messageFrame, listed.resentFrame}));
        instance.emplace("original_captured", listed.refusedCaptured);
        instance.emplace("ts_offset_ms", toMs(listed.refusedSentNs - totals.firstTsNs));
        instance.emplace("gap_ms", toMs(listed.waitNs));
        instance.emplace("after_message_ms", toMs(listed.reactionNs));
        instance.emplace("relative_seq", listed.relativeSeq);
        instance.emplace("bytes", listed.bytes);
        instance.emplace("resends", listed.resends);
        instances.push_back(std::move(instance));
    }
    const std::string sender = totals.senderEndpoint.toString();
    const std::string receiver = totals.receiverEndpoint.toString();
    const std::string reporter = totals.reporter.toString();
    const bool mtuKnown = totals.smallestMtu != UINT32_MAX;
    nlohmann::json::object_t evidence;
    evidence.emplace("sender", sender);
    evidence.emplace("receiver", receiver);
    evidence.emplace("sender_side", sideName(totals.sender));
    evidence.emplace("reported_by", reporter);
    evidence.emplace("next_hop_mtu", mtuKnown ? nlohmann::json(totals.smallestMtu) : nlohmann::json(nullptr));
    evidence.emplace("refused_packet_bytes", totals.largestPacketBytes);
    evidence.emplace("messages", totals.messages);
    evidence.emplace("episodes", totals.episodes);
    evidence.emplace("resends", totals.resends);
    evidence.emplace("lost_ms", finding.durationMs);
    evidence.emplace("longest_ms", toMs(totals.longestNs));
    evidence.emplace("slowest_resend_after_message_ms", toMs(totals.slowestReactionNs));
    evidence.emplace("instances", std::move(instances));
    evidence.emplace("instances_truncated", totals.episodes > totals.listed.size());
    finding.evidence = std::move(evidence);

    const std::string limit = mtuKnown ? fmt::format("its next hop takes {} B", totals.smallestMtu)
                                       : std::string("it did not say what its next hop takes");
    const std::string resends =
        totals.resends == 1 ? std::string("1 segment") : fmt::format("{} segments", totals.resends);
    const std::string reaction =
        finding.severity == Severity::Warning
            ? fmt::format(
                  "the sender resent only {:.1f} ms after the message, when its retransmission timer fired: "
                  "check that these ICMP messages reach it and that path-MTU discovery is on "
                  "(net.ipv4.ip_no_pmtu_disc=0), or turn on MTU probing (net.ipv4.tcp_mtu_probing=1); ",
                  toMs(totals.slowestReactionNs))
            : fmt::format(
                  "the sender resent {:.1f} ms after the message, at once: path-MTU discovery worked, at the "
                  "cost of that round trip; ",
                  toMs(totals.slowestReactionNs));
    finding.summary = fmt::format(
        "{} -> {}: {} refused packets of {} B as too big ({}), so {} went again in smaller pieces; the data waited "
        "{:.1f} ms (longest {:.1f} ms). Not a loss on a bad path: {}make the MTU consistent along the path or clamp "
        "the TCP MSS where it shrinks (a tunnel or VPN: iptables -j TCPMSS --clamp-mss-to-pmtu), and let ICMP "
        "\"fragmentation needed\" / ICMPv6 \"packet too big\" through firewalls.",
        sender, receiver, reporter, totals.largestPacketBytes, limit, resends, finding.durationMs,
        toMs(totals.longestNs), reaction);
}

}  // namespace tcpscope
