#pragma once
// What a packet's details are made of: a plain tree that the CLI prints (packets -V) and the GUI shows.
#include <cstdint>
#include <string>
#include <vector>

namespace tcpscope::dissect {

/// One row of a packet's details, as Wireshark's packet details pane shows it: a label, the value
/// as text, the Wireshark field name where one exists (e.g. "ip.ttl"), and the bytes it covers.
struct DissectionNode {
    std::string label;    ///< "Time to Live"
    std::string value;    ///< "64"
    std::string field;    ///< "ip.ttl", or empty where Wireshark has no field
    uint32_t offset = 0;  ///< first byte of the frame the row covers
    uint32_t length = 0;  ///< bytes covered (0: none, e.g. a generated row)
    std::vector<DissectionNode> children;

    /// Adds a child row and returns it (valid until the next add to this node).
    DissectionNode& add(std::string childLabel, std::string childValue, std::string childField = {},
                        uint32_t childOffset = 0, uint32_t childLength = 0);
    /// The first row in this subtree (this one included) whose field is `name`, or null.
    [[nodiscard]] const DissectionNode* find(std::string_view name) const;
};

/// The bytes of one frame as read again from its capture file.
struct FrameBytes {
    std::vector<uint8_t> data;    ///< the captured bytes
    uint32_t originalLength = 0;  ///< length on the wire (at least data.size())
    uint32_t linkType = 0;        ///< LINKTYPE_* of its interface
    uint64_t recordOffset = 0;    ///< where its record starts in the (decompressed) file
};

/// Wireshark's words for bytes beyond the captured ones.
inline constexpr const char* kPacketSizeLimited = "[Packet size limited during capture]";

}  // namespace tcpscope::dissect
