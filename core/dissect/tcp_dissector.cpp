#include <fmt/format.h>

#include "decode/byte_order.hpp"
#include "dissect/frame_dissector.hpp"
#include "dissect/hex_dump.hpp"

namespace tcpscope::dissect {

namespace {

constexpr uint32_t kTcpMinimumHeaderBytes = 20;
constexpr size_t kPayloadPreviewBytes = 48;

std::string hexBytes(const uint8_t* bytes, uint32_t length) {
    std::string text;
    for (uint32_t i = 0; i < length; ++i) {
        text += fmt::format("{:02x}", bytes[i]);
    }
    return text;
}

/// "SYN, ACK" as Wireshark's flags row says it.
std::string flagNames(uint16_t flags) {
    static constexpr std::pair<uint16_t, const char*> kNames[] = {{0x100, "AE"},  {0x080, "CWR"}, {0x040, "ECE"},
                                                                  {0x020, "URG"}, {0x010, "ACK"}, {0x008, "PSH"},
                                                                  {0x004, "RST"}, {0x002, "SYN"}, {0x001, "FIN"}};
    std::string text;
    for (const auto& [bit, name] : kNames) {
        if ((flags & bit) != 0) {
            text += text.empty() ? "" : ", ";
            text += name;
        }
    }
    return text.empty() ? std::string("<None>") : text;
}

uint32_t relativeTo(uint32_t raw, std::optional<uint32_t> base) {
    return base ? raw - *base : raw;
}

/// An option's own row with its kind and length rows, the common part of every option.
DissectionNode& optionRow(DissectionNode& options, std::string title, std::string value, std::string field,
                          uint32_t offset, uint32_t length, uint8_t kind) {
    DissectionNode& option =
        options.add(fmt::format("TCP Option - {}", title), std::move(value), std::move(field), offset, length);
    option.add("Kind", std::to_string(kind), "tcp.option_kind", offset, 1);
    if (length >= 2) {
        option.add("Length", std::to_string(length), "tcp.option_len", offset + 1, 1);
    }
    return option;
}

}  // namespace

void dissectTcpOptions(const FrameBytes& frame, uint32_t offset, uint32_t length, const DissectContext& context,
                       DissectionNode& options) {
    const uint8_t* bytes = frame.data.data();
    const uint32_t end = offset + length;
    uint32_t position = offset;
    while (position < end) {
        const uint8_t kind = bytes[position];
        if (kind == 0) {
            optionRow(options, "End of Option List (EOL)", {}, "tcp.options.eol", position, 1, kind);
            position += 1;
            continue;  // Wireshark shows the padding after EOL as more EOLs
        }
        if (kind == 1) {
            optionRow(options, "No-Operation (NOP)", {}, "tcp.options.nop", position, 1, kind);
            position += 1;
            continue;
        }
        if (position + 1 >= end || bytes[position + 1] < 2 || position + bytes[position + 1] > end) {
            options.add(fmt::format("TCP Option - kind {}", kind), "[option runs past the end of the header]",
                        "_ws.malformed", position, end - position);
            return;
        }
        const uint8_t optionLength = bytes[position + 1];
        const uint8_t* value = bytes + position + 2;
        const uint32_t valueLength = optionLength - 2U;
        if (kind == 2 && valueLength == 2) {
            const uint16_t mss = loadBigEndian16(value);
            DissectionNode& option = optionRow(options, "Maximum segment size", fmt::format("{} bytes", mss),
                                               "tcp.options.mss", position, optionLength, kind);
            option.add("MSS Value", std::to_string(mss), "tcp.options.mss_val", position + 2, 2);
        } else if (kind == 3 && valueLength == 1) {
            const uint8_t shift = value[0];
            const uint64_t multiplier = shift <= 14 ? uint64_t{1} << shift : uint64_t{1} << 14;
            DissectionNode& option =
                optionRow(options, "Window scale", fmt::format("{} (multiply by {})", shift, multiplier),
                          "tcp.options.wscale", position, optionLength, kind);
            option.add("Shift count", std::to_string(shift), "tcp.options.wscale.shift", position + 2, 1);
            option.add("Multiplier", std::to_string(multiplier), "tcp.options.wscale.multiplier", position + 2, 1);
        } else if (kind == 4 && valueLength == 0) {
            optionRow(options, "SACK permitted", {}, "tcp.options.sack_perm", position, optionLength, kind);
        } else if (kind == 5 && valueLength % 8 == 0 && valueLength > 0) {
            // SACK edges are in the other side's sequence space: relative to its base.
            std::string edgesText;
            std::vector<DissectionNode> edges;
            for (uint32_t i = 0; i < valueLength; i += 8) {
                const uint32_t left = relativeTo(loadBigEndian32(value + i), context.receiverBaseSeq);
                const uint32_t right = relativeTo(loadBigEndian32(value + i + 4), context.receiverBaseSeq);
                edgesText += fmt::format("{}{}-{}", edgesText.empty() ? "" : " ", left, right);
                edges.push_back({"left edge", std::to_string(left), "tcp.options.sack_le", position + 2 + i, 4, {}});
                edges.push_back({"right edge", std::to_string(right), "tcp.options.sack_re", position + 6 + i, 4, {}});
            }
            DissectionNode& option =
                optionRow(options, "SACK", edgesText, "tcp.options.sack", position, optionLength, kind);
            for (DissectionNode& edge : edges) {
                edge.label = "TCP SACK " + edge.label;
                if (context.receiverBaseSeq) {
                    edge.value += " (relative)";
                }
                option.children.push_back(std::move(edge));
            }
            option.add("[TCP SACK Count]", std::to_string(valueLength / 8), "tcp.options.sack.count");
        } else if (kind == 8 && valueLength == 8) {
            const uint32_t tsval = loadBigEndian32(value);
            const uint32_t tsecr = loadBigEndian32(value + 4);
            DissectionNode& option = optionRow(options, "Timestamps", fmt::format("TSval {}, TSecr {}", tsval, tsecr),
                                               "tcp.options.time_stamp", position, optionLength, kind);
            option.add("Timestamp value", std::to_string(tsval), "tcp.options.timestamp.tsval", position + 2, 4);
            option.add("Timestamp echo reply", std::to_string(tsecr), "tcp.options.timestamp.tsecr", position + 6, 4);
        } else if (kind == 34) {
            DissectionNode& option =
                optionRow(options, valueLength == 0 ? "TCP Fast Open Cookie Request" : "TCP Fast Open Cookie", {},
                          "tcp.options.tfo", position, optionLength, kind);
            if (valueLength == 0) {
                option.add("Fast Open Cookie Request", {}, "tcp.options.tfo.request", position, 2);
            } else {
                option.add("Fast Open Cookie", hexBytes(value, valueLength), "tcp.options.tfo.cookie", position + 2,
                           valueLength);
            }
        } else if (kind == 30 && valueLength >= 1) {
            DissectionNode& option = optionRow(options, "Multipath TCP", hexBytes(value, valueLength),
                                               "tcp.options.mptcp", position, optionLength, kind);
            option.add("Multipath TCP subtype", std::to_string(value[0] >> 4), "tcp.options.mptcp.subtype",
                       position + 2, 1);
        } else {
            DissectionNode& option = optionRow(options, "Unknown", fmt::format("kind {}, {} bytes", kind, optionLength),
                                               "tcp.options.unknown", position, optionLength, kind);
            if (valueLength > 0) {
                option.add("Payload", hexBytes(value, valueLength), "tcp.options.unknown.payload", position + 2,
                           valueLength);
            }
        }
        position += optionLength;
    }
}

void dissectTcp(const FrameBytes& frame, uint32_t offset, uint32_t segmentLength, const DissectContext& context,
                std::vector<DissectionNode>& layers) {
    const auto captured = static_cast<uint32_t>(frame.data.size());
    DissectionNode tcp{"Transmission Control Protocol", {}, "tcp", offset, kTcpMinimumHeaderBytes, {}};
    if (offset > captured || captured - offset < kTcpMinimumHeaderBytes) {
        tcp.add(kPacketSizeLimited, {}, "_ws.short");
        layers.push_back(std::move(tcp));
        return;
    }
    const uint8_t* header = frame.data.data() + offset;
    const uint16_t sourcePort = loadBigEndian16(header);
    const uint16_t destinationPort = loadBigEndian16(header + 2);
    const uint32_t seq = loadBigEndian32(header + 4);
    const uint32_t ack = loadBigEndian32(header + 8);
    const uint32_t headerBytes = (header[12] >> 4) * 4U;
    const uint16_t flags = loadBigEndian16(header + 12) & 0x01FF;
    const uint32_t payloadLength = segmentLength >= headerBytes ? segmentLength - headerBytes : 0;
    const uint32_t relativeSeq = relativeTo(seq, context.senderBaseSeq);
    tcp.length = headerBytes;
    tcp.value =
        fmt::format("Src Port: {}, Dst Port: {}, Seq: {}, Ack: {}, Len: {}", sourcePort, destinationPort, relativeSeq,
                    (flags & 0x010) != 0 ? relativeTo(ack, context.receiverBaseSeq) : 0, payloadLength);
    const char* relativeNote = context.senderBaseSeq ? "    (relative sequence number)" : "";
    tcp.add("Source Port", std::to_string(sourcePort), "tcp.srcport", offset, 2);
    tcp.add("Destination Port", std::to_string(destinationPort), "tcp.dstport", offset + 2, 2);
    tcp.add("[TCP Segment Len]", std::to_string(payloadLength), "tcp.len");
    tcp.add("Sequence Number", fmt::format("{}{}", relativeSeq, relativeNote), "tcp.seq", offset + 4, 4);
    tcp.add("Sequence Number (raw)", std::to_string(seq), "tcp.seq_raw", offset + 4, 4);
    const uint32_t phantom = ((flags & 0x002) != 0 ? 1U : 0U) + ((flags & 0x001) != 0 ? 1U : 0U);
    if (payloadLength + phantom > 0) {
        tcp.add("[Next Sequence Number]", fmt::format("{}{}", relativeSeq + payloadLength + phantom, relativeNote),
                "tcp.nxtseq");
    }
    if ((flags & 0x010) != 0) {
        tcp.add("Acknowledgment Number",
                fmt::format("{}{}", relativeTo(ack, context.receiverBaseSeq),
                            context.receiverBaseSeq ? "    (relative ack number)" : ""),
                "tcp.ack", offset + 8, 4);
    } else {
        tcp.add("Acknowledgment Number", "0", "tcp.ack", offset + 8, 4);
    }
    tcp.add("Acknowledgment number (raw)", std::to_string(ack), "tcp.ack_raw", offset + 8, 4);
    tcp.add("Header Length", fmt::format("{} bytes ({})", headerBytes, header[12] >> 4), "tcp.hdr_len", offset + 12, 1);
    DissectionNode& flagRow =
        tcp.add("Flags", fmt::format("0x{:03x} ({})", flags, flagNames(flags)), "tcp.flags", offset + 12, 2);
    static constexpr struct {
        uint16_t bit;
        const char* label;
        const char* field;
    } kFlagRows[] = {{0x0E00, "Reserved", "tcp.flags.res"},
                     {0x100, "Accurate ECN", "tcp.flags.ae"},
                     {0x080, "Congestion Window Reduced", "tcp.flags.cwr"},
                     {0x040, "ECN-Echo", "tcp.flags.ece"},
                     {0x020, "Urgent", "tcp.flags.urg"},
                     {0x010, "Acknowledgment", "tcp.flags.ack"},
                     {0x008, "Push", "tcp.flags.push"},
                     {0x004, "Reset", "tcp.flags.reset"},
                     {0x002, "Syn", "tcp.flags.syn"},
                     {0x001, "Fin", "tcp.flags.fin"}};
    const uint16_t allFlagBits = loadBigEndian16(header + 12) & 0x0FFF;
    for (const auto& row : kFlagRows) {
        flagRow.add(row.label, (allFlagBits & row.bit) != 0 ? "Set" : "Not set", row.field, offset + 12, 2);
    }
    tcp.add("Window", std::to_string(loadBigEndian16(header + 14)), "tcp.window_size_value", offset + 14, 2);
    tcp.add("Checksum", fmt::format("0x{:04x} [unverified]", loadBigEndian16(header + 16)), "tcp.checksum", offset + 16,
            2);
    tcp.add("Urgent Pointer", std::to_string(loadBigEndian16(header + 18)), "tcp.urgent_pointer", offset + 18, 2);
    if (headerBytes < kTcpMinimumHeaderBytes) {
        tcp.add("[Bogus TCP header length, must be at least 20]", std::to_string(headerBytes), "_ws.malformed");
        layers.push_back(std::move(tcp));
        return;
    }
    if (headerBytes > kTcpMinimumHeaderBytes) {
        const uint32_t optionBytes = headerBytes - kTcpMinimumHeaderBytes;
        DissectionNode& options = tcp.add("Options", fmt::format("({} bytes)", optionBytes), "tcp.options",
                                          offset + kTcpMinimumHeaderBytes, optionBytes);
        const uint32_t capturedOptions = std::min(optionBytes, captured - offset - kTcpMinimumHeaderBytes);
        dissectTcpOptions(frame, offset + kTcpMinimumHeaderBytes, capturedOptions, context, options);
        if (capturedOptions < optionBytes) {
            options.add(kPacketSizeLimited, {}, "_ws.short");
        }
        std::string names;
        for (const DissectionNode& option : options.children) {
            if (option.label.starts_with("TCP Option - ")) {
                names += names.empty() ? "" : ", ";
                names += option.label.substr(std::string_view("TCP Option - ").size());
            }
        }
        options.value += ", " + names;
    }
    layers.push_back(std::move(tcp));
    if (payloadLength == 0) {
        return;
    }
    const uint32_t payloadOffset = offset + headerBytes;
    const uint32_t payloadCaptured = payloadOffset < captured ? std::min(payloadLength, captured - payloadOffset) : 0;
    DissectionNode payload{
        fmt::format("TCP payload ({} bytes)", payloadLength), {}, "tcp.payload", payloadOffset, payloadCaptured, {}};
    if (payloadCaptured > 0) {
        const std::span<const uint8_t> shown(frame.data.data() + payloadOffset,
                                             std::min<size_t>(payloadCaptured, kPayloadPreviewBytes));
        payload.value = printableText(shown) + (payloadCaptured > kPayloadPreviewBytes ? "\u2026" : "");
        for (char& c : payload.value) {
            if (c == '\n' || c == '\r' || c == '\t') {
                c = '.';
            }
        }
    }
    if (payloadCaptured < payloadLength) {
        payload.add(kPacketSizeLimited, fmt::format("{} of {} bytes captured", payloadCaptured, payloadLength),
                    "_ws.short");
    }
    layers.push_back(std::move(payload));
}

}  // namespace tcpscope::dissect
