// Fuzz target for the display filter parser: arbitrary bytes are compiled as an expression (a
// syntax error is a DisplayFilterError, never a crash), and a filter that compiles is run on an
// IPv4 and an IPv6 packet, with and without the frame's record.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "filter/display_filter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace tcpscope;
    const std::string_view expression(reinterpret_cast<const char*>(data), size);
    try {
        const filter::DisplayFilter compiled = filter::DisplayFilter::compile(expression);
        Connection connection;
        const uint8_t client[4] = {10, 0, 0, 1};
        const uint8_t server[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
        connection.client = {IpAddress::fromV4(client), 40000};
        connection.server = {IpAddress::fromV4(client), 80};
        connection.sequence[0].windowScale = 14;
        IndexedPacket packet;
        packet.frame = 3;
        packet.tsNs = 5;
        packet.tcpFlags = 0xff;
        packet.analysis = 0x7fff;
        filter::FrameRecord record;
        record.frame = 3;
        record.tcp = true;
        record.segment.options.hasTimestamp = true;
        volatile bool sink = compiled.matches(filter::FilterPacket{packet, connection, 0});
        sink = compiled.matches(filter::FilterPacket{packet, connection, 0, &record});
        connection.server = {IpAddress::fromV6(server), 80};
        packet.fromServer = true;
        record.segment.ipVersion = 6;
        sink = compiled.matches(filter::FilterPacket{packet, connection, INT64_MAX, &record});
        (void)sink;
    } catch (const filter::DisplayFilterError& error) {
        (void)error.offset();
    }
    return 0;
}
