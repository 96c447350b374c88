// The detectors see a segment's connection through a ConnectionSnapshot: the fields they read, as
// the connection's record had them right after that segment. A field copied wrong (the other side's,
// a stale value) would change findings on some capture only; here every field is checked on every
// segment of the recorded samples, on one thread and when the load is split over two.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "capture/capture_reader.hpp"
#include "engine/capture_loader.hpp"
#include "engine/worker_threads.hpp"

using namespace tcpscope;

namespace {

// Samples with handshakes, FINs from either side first, resets, reused tuples and timestamps.
const std::vector<std::string> kSamples = {"http-close.pcap", "http-tw-reuse.pcap", "port-reuse-collision.pcap",
                                           "churn-exhaustion.pcap", "backlog-overflow.pcap", "proxy-nagle.pcap"};

std::string samplePath(const std::string& name) { return std::string(TCPSCOPE_SOURCE_DIR) + "/samples/" + name; }

// On one thread the engine is at rest in onSegment: its record is the connection after the segment.
struct AgainstRecord final : SegmentObserver {
    explicit AgainstRecord(const AnalysisEngine& engine) : engine(engine) {}
    void onSegment(const SegmentEvent& event) override {
        const ConnectionSnapshot& snapshot = event.connection;
        const Connection& record = engine.connections()[snapshot.id];
        ++segments;
        CHECK(snapshot.firstTsNs == record.firstTsNs);
        CHECK(snapshot.lastTsNs == record.lastTsNs);
        CHECK(snapshot.lastTsNs == event.tsNs);
        CHECK(snapshot.initialRttNs == record.initialRttNs);
        CHECK(snapshot.handshakeRttNs() == record.handshakeRttNs());
        CHECK(snapshot.reuseGapNs == record.reuseGapNs);
        CHECK(snapshot.reusedFrom == record.reusedFrom);
        CHECK(snapshot.firstFrame == record.firstFrame);
        CHECK(snapshot.client == record.client);
        CHECK(snapshot.server == record.server);
        CHECK(snapshot.hasActiveCloser == record.hasActiveCloser);
        CHECK(snapshot.activeCloser == record.activeCloser);
        for (const Side side : {Side::Client, Side::Server}) {
            CHECK(snapshot.endpoint(side) == record.endpoint(side));
            CHECK(snapshot.from(side).firstFinFrame == record.from(side).firstFinFrame);
            CHECK(snapshot.from(side).mss == record.from(side).mss);
            CHECK(snapshot.from(side).sawFin == record.from(side).sawFin);
            CHECK(snapshot.from(side).timestamps == record.from(side).timestamps);
            CHECK(snapshot.sequence[sideIndex(side)].baseSeq == record.sequence[sideIndex(side)].baseSeq);
        }
        // The samples exercise what the snapshot carries, or these checks would prove little.
        sawFin = sawFin || snapshot.from(Side::Server).sawFin;
        sawReuse = sawReuse || snapshot.reusedFrom != kNoConnection;
        sawRtt = sawRtt || snapshot.handshakeRttNs() > 0;
    }
    const AnalysisEngine& engine;
    size_t segments = 0;
    bool sawFin = false;
    bool sawReuse = false;
    bool sawRtt = false;
};

// Every snapshot handed to the observers, in order.
struct Recorder final : SegmentObserver {
    void onSegment(const SegmentEvent& event) override { snapshots.push_back(event.connection); }
    std::vector<ConnectionSnapshot> snapshots;
};

}  // namespace

TEST_CASE("connection snapshot: every segment shows its connection's fields as the record has them after it",
          "[engine]") {
    bool sawFin = false;
    bool sawReuse = false;
    bool sawRtt = false;
    for (const std::string& name : kSamples) {
        CAPTURE(name);
        AnalysisEngine engine;
        AgainstRecord checker(engine);
        engine.addObserver(&checker);
        const std::unique_ptr<CaptureReader> reader = CaptureReader::open(samplePath(name));
        RawPacket packet;
        while (reader->next(packet)) {
            engine.push(packet, 0);
        }
        CHECK(checker.segments == engine.counters().tcp);
        sawFin = sawFin || checker.sawFin;
        sawReuse = sawReuse || checker.sawReuse;
        sawRtt = sawRtt || checker.sawRtt;
    }
    CHECK(sawFin);
    CHECK(sawReuse);
    CHECK(sawRtt);
}

TEST_CASE("connection snapshot: a load split over two threads hands the observers the same snapshots", "[engine]") {
    if (!secondThreadAllowed()) {
        WARN("one core (or TCPSCOPE_THREADS=1): the load is not split");
        return;
    }
    for (const std::string& name : kSamples) {
        CAPTURE(name);
        AnalysisEngine split;
        Recorder splitSeen;
        split.addObserver(&splitSeen);
        loadCaptures({samplePath(name)}, split);

        AnalysisEngine oneThread;
        Recorder oneThreadSeen;
        oneThread.addObserver(&oneThreadSeen);
        const std::unique_ptr<CaptureReader> reader = CaptureReader::open(samplePath(name));
        RawPacket packet;
        while (reader->next(packet)) {
            oneThread.push(packet, 0);
        }
        REQUIRE(splitSeen.snapshots.size() == oneThreadSeen.snapshots.size());
        REQUIRE(!splitSeen.snapshots.empty());
        for (size_t i = 0; i < splitSeen.snapshots.size(); ++i) {
            CAPTURE(i);
            REQUIRE(splitSeen.snapshots[i] == oneThreadSeen.snapshots[i]);
        }
    }
}
