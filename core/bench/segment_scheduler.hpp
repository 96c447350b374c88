#pragma once
#include <cstdint>

#include "bench/conversation.hpp"
#include "bench/pcap_file_writer.hpp"

namespace tcpscope::bench {

/// What the generator wrote.
struct GeneratorStats {
    uint64_t packets = 0;
    uint64_t connections = 0;  ///< first SYNs written (connection generations, retransmissions not counted)
    uint64_t bytes = 0;        ///< file size
    uint64_t peakConversations = 0;  ///< most conversations in progress at once
    int64_t firstTsNs = 0;
    int64_t lastTsNs = 0;
};

/// Interleaves the conversations of `source` in time order into `writer`: a min-heap of the
/// planned segments of every conversation in progress, refilled one step at a time. Stops when
/// the source and every conversation are done, or after exactly `maxPackets` segments (the
/// capture then ends with connections still open, as a real one does). Ties in time keep the
/// order in which segments were planned, so the output depends on nothing but the source.
GeneratorStats runSchedule(ConversationSource& source, PcapFileWriter& writer, uint64_t maxPackets);

}  // namespace tcpscope::bench
