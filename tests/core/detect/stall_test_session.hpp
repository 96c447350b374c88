#pragma once
// One detector attached to the real engine, fed with frames built in code, for the tests of
// syn_backlog_overflow, retransmission_stall and zero_window_stall.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "../tcp/session.hpp"
#include "detect/detector_options.hpp"
#include "detect/finding_log.hpp"

namespace tcpscope::test {

template <typename DetectorType>
class DetectorSession : public Session {
public:
    explicit DetectorSession(const DetectorOptions& detectorOptions = {})
        : options(detectorOptions), detector(engine, options, log) {
        engine.addObserver(&detector);
    }
    DetectorSession(const DetectorOptions& detectorOptions, const EngineOptions& engineOptions)
        : Session(engineOptions), options(detectorOptions), detector(engine, options, log) {
        engine.addObserver(&detector);
    }

    /// Ends the input, as the end of a file does.
    void finish() { engine.finish(); }

    /// The findings of `kind`, in the order they were made.
    [[nodiscard]] std::vector<Finding> findings(FindingKind kind) const {
        std::vector<Finding> found;
        for (const Finding& finding : log.all()) {
            if (finding.kind == kind) {
                found.push_back(finding);
            }
        }
        return found;
    }

    /// The one finding of `kind` (the test fails if there are none or several).
    [[nodiscard]] Finding onlyFinding(FindingKind kind) const {
        const std::vector<Finding> found = findings(kind);
        REQUIRE(found.size() == 1);
        return found.front();
    }

    /// The frame number of the last packet pushed.
    [[nodiscard]] uint32_t lastFrame() const { return static_cast<uint32_t>(engine.packets().size()); }

    DetectorOptions options;
    FindingLog log;
    DetectorType detector;
};

/// A segment between any two endpoints (IPv6 when the addresses contain ':').
inline SegmentSpec segmentBetween(const std::string& source, uint16_t sourcePort, const std::string& destination,
                                  uint16_t destinationPort, uint32_t seq, uint32_t ack, uint16_t flags,
                                  uint32_t length = 0) {
    SegmentSpec spec;
    spec.source = source;
    spec.sourcePort = sourcePort;
    spec.destination = destination;
    spec.destinationPort = destinationPort;
    spec.seq = seq;
    spec.ack = ack;
    spec.flags = flags;
    spec.payloadLength = length;
    return spec;
}

}  // namespace tcpscope::test
