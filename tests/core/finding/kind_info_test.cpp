// What a kind of finding is, said once in its row: every kind has one, complete, and the row's
// frame roles are what a span can be asked for by name.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "finding/kind_info.hpp"

using namespace tcpscope;

TEST_CASE("every kind has its own row, with a name, a title, a cause and a fix", "[finding]") {
    std::set<std::string> titles;
    for (const FindingKind kind : kFindingKinds) {
        const KindInfo& row = kindInfo(kind);
        CAPTURE(row.name);
        CHECK(row.kind == kind);
        CHECK_FALSE(row.title.empty());
        CHECK(row.cause.ends_with("."));
        CHECK(row.fix.ends_with("."));
        CHECK(row.frames.count <= SpanFrames::kCapacity);
        titles.emplace(row.title);
    }
    CHECK(titles.size() == kFindingKinds.size());
}

TEST_CASE("an effect in an incident's chain has a cause of the same scope to follow from", "[finding]") {
    for (const FindingKind kind : kFindingKinds) {
        const IncidentLink link = kindInfo(kind).incident;
        if (link.role != ChainRole::Effect) {
            continue;
        }
        CAPTURE(findingKindName(kind));
        bool causeInScope = false;
        for (const FindingKind other : kFindingKinds) {
            const IncidentLink otherLink = kindInfo(other).incident;
            causeInScope |= otherLink.scope == link.scope && otherLink.role == ChainRole::Cause;
        }
        CHECK(causeInScope);
    }
    // The seeds of the incidents: a port pool's churn leads, its exhaustion and reuse follow.
    CHECK(kindInfo(FindingKind::TimeWaitChurn).incident.role == ChainRole::Cause);
    CHECK(kindInfo(FindingKind::PortExhaustion).incident.scope == IncidentScope::PortPool);
    CHECK(kindInfo(FindingKind::PortReuse).incident.scope == IncidentScope::PortPool);
    CHECK(kindInfo(FindingKind::DelayedAckStall).incident.scope == IncidentScope::Process);
}

TEST_CASE("a kind whose spans several capture points break down lists the frames the placement reads",
          "[finding]") {
    for (const FindingKind kind : kFindingKinds) {
        const KindInfo& row = kindInfo(kind);
        CAPTURE(row.name);
        if (row.hops != HopPlacement::None) {
            CHECK(row.frames.count >= 2);
            CHECK(row.picture == SectionPicture::Sequence);
        }
    }
}

TEST_CASE("a span's frames are read by role, and a frame the span left out is none", "[finding]") {
    SpanFrames collision{{FrameRole::FirstSyn, 10}, {FrameRole::HandshakeEnd, 14}};
    CHECK(collision.size() == 2);
    CHECK(collision.of(FrameRole::FirstSyn) == 10u);
    CHECK(collision.of(FrameRole::HandshakeEnd) == 14u);
    CHECK_FALSE(collision.of(FrameRole::ServerAnswer));
    CHECK(collision.front() == 10);
    CHECK(collision.back() == 14);
    CHECK(collision.roleAt(1) == FrameRole::HandshakeEnd);

    SpanFrames full{{FrameRole::SmallSegment, 1}, {FrameRole::LateAck, 2}, {FrameRole::HeldSegment, 3}};
    full.push_back(FrameRole::HeldSegment, 4);  // beyond the capacity: nothing
    CHECK(full.size() == SpanFrames::kCapacity);
    CHECK(full.of(FrameRole::HeldSegment) == 3u);
}

TEST_CASE("the timeline names each group of kinds, and the kinds of no group of their own share one",
          "[finding]") {
    std::set<std::string> labels;
    for (size_t group = 0; group < kStallGroupCount; ++group) {
        labels.emplace(stallGroupLabel(static_cast<StallGroup>(group)));
    }
    CHECK(labels.size() == kStallGroupCount);
    CHECK(stallGroupLabel(kindInfo(FindingKind::SynBacklogOverflow).stallGroup) == "SYN backlog overflow");
    CHECK(kindInfo(FindingKind::PortScan).stallGroup == StallGroup::Other);
}
