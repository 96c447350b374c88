// The note set: ids, editing rules (capture comments are read-only), frame lookup, bounded text.
#include "annotate/note_set.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "annotate/finding_note_target.hpp"

using namespace tcpscope;

TEST_CASE("notes are added, edited and removed by id - ids are never reused") {
    NoteSet notes;
    const uint64_t first = notes.add(PacketNoteTarget{12, "a.pcap", 1000}, "held by Nagle", 5);
    const uint64_t second = notes.add(SpanNoteTarget{100, 200}, "idle", 6);
    CHECK(second > first);
    REQUIRE(notes.edit(first, "held by Nagle for 40 ms"));
    CHECK(notes.find(first)->text == "held by Nagle for 40 ms");
    REQUIRE(notes.remove(first));
    CHECK(notes.find(first) == nullptr);
    CHECK_FALSE(notes.remove(first));
    const uint64_t third = notes.add(SpanNoteTarget{1, 2}, "x", 7);
    CHECK(third > second);
    CHECK(notes.size() == 2);
}

TEST_CASE("capture comments are read-only and not part of the user's notes") {
    NoteSet notes;
    const uint64_t user = notes.add(PacketNoteTarget{3, "a.pcapng", 0}, "mine", 1);
    notes.setCaptureComments({PacketNoteTarget{3, "a.pcapng", 0}, PacketNoteTarget{9, "a.pcapng", 0}},
                             {"from wireshark", "second"});
    REQUIRE(notes.size() == 3);
    const Note& comment = notes.notes()[1];
    CHECK(comment.readOnly());
    CHECK_FALSE(notes.edit(comment.id, "changed"));
    CHECK_FALSE(notes.remove(comment.id));
    CHECK(notes.notesOnFrame(3).size() == 2);
    CHECK(notes.userNotes().size() == 1);
    CHECK(notes.userNotes()[0].id == user);
    // Loading the capture again replaces the comments instead of adding them twice.
    notes.setCaptureComments({PacketNoteTarget{9, "a.pcapng", 0}}, {"second"});
    CHECK(notes.size() == 2);
}

TEST_CASE("restored notes keep their ids and later notes get new ones") {
    NoteSet notes;
    Note saved;
    saved.id = 41;
    saved.text = "from the sidecar";
    saved.target = SpanNoteTarget{5, 9};
    notes.restore(saved);
    notes.restore(saved);  // a duplicate id (hand-edited file) keeps both notes
    CHECK(notes.size() == 2);
    CHECK(notes.find(41)->text == "from the sidecar");
    CHECK(notes.add(SpanNoteTarget{1, 2}, "new", 0) > 42);
}

TEST_CASE("a note longer than a pcapng option is cut on a character boundary") {
    NoteSet notes;
    std::string text(kMaxNoteTextBytes - 1, 'a');
    text += "\xC3\xA9\xC3\xA9";  // two-byte characters across the limit
    const uint64_t id = notes.add(SpanNoteTarget{}, text, 0);
    const std::string& kept = notes.find(id)->text;
    CHECK(kept.size() == kMaxNoteTextBytes - 1);
    CHECK(kept.back() == 'a');
}

TEST_CASE("a finding is identified by kind, endpoints and start, not by its position") {
    ConnectionStore connections(2);
    const uint8_t loopback[4] = {127, 0, 0, 1};
    connections[1].client = Endpoint{IpAddress::fromV4(loopback), 58562};
    connections[1].server = Endpoint{IpAddress::fromV4(loopback), 3307};
    Finding finding;
    finding.id = 0;
    finding.kind = FindingKind::DelayedAckStall;
    finding.connection = 1;
    finding.tsNs = 123456789;
    const FindingNoteTarget target = findingNoteTarget(finding, connections);
    CHECK(target.connection == "127.0.0.1:58562 -> 127.0.0.1:3307");
    finding.id = 7;  // another run numbers it differently
    CHECK(noteTargetsFinding(target, finding, connections));
    finding.tsNs += 1;
    CHECK_FALSE(noteTargetsFinding(target, finding, connections));
    CHECK(describeNoteTarget(target).starts_with("delayed_ack_stall "));
}
