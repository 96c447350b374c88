// Link type names and support, declared in packet_decoder.hpp.
#include <array>
#include <string>
#include <utility>

#include "capture/raw_packet.hpp"
#include "decode/packet_decoder.hpp"

namespace tcpscope {
namespace {

/// Names as libpcap's pcap_datalink_val_to_name() gives them (the DLT_ name without its prefix), which
/// is what tcpdump prints after "link-type". 12 and 14 are the historical DLT_RAW values.
constexpr std::array<std::pair<uint32_t, const char*>, 48> kLinkTypeNames{{
    {0, "NULL"},           {1, "EN10MB"},          {6, "IEEE802"},
    {7, "ARCNET"},         {8, "SLIP"},            {9, "PPP"},
    {10, "FDDI"},          {12, "RAW"},            {14, "RAW"},
    {50, "PPP_SERIAL"},    {51, "PPP_ETHER"},      {100, "ATM_RFC1483"},
    {101, "RAW"},          {104, "C_HDLC"},        {105, "IEEE802_11"},
    {107, "FRELAY"},       {108, "LOOP"},          {109, "ENC"},
    {113, "LINUX_SLL"},    {114, "LTALK"},         {117, "PFLOG"},
    {119, "PRISM_HEADER"}, {122, "IP_OVER_FC"},    {123, "SUNATM"},
    {127, "IEEE802_11_RADIO"}, {129, "ARCNET_LINUX"}, {138, "APPLE_IP_OVER_IEEE1394"},
    {143, "DOCSIS"},       {163, "IEEE802_11_RADIO_AVS"}, {187, "BLUETOOTH_HCI_H4"},
    {189, "USB_LINUX"},    {192, "PPI"},           {195, "IEEE802_15_4"},
    {197, "ERF"},          {201, "BLUETOOTH_HCI_H4_WITH_PHDR"}, {220, "USB_LINUX_MMAPPED"},
    {226, "IPNET"},        {227, "CAN_SOCKETCAN"}, {228, "IPV4"},
    {229, "IPV6"},         {239, "NFLOG"},         {240, "NETANALYZER"},
    {243, "MPEG_2_TS"},    {249, "USBPCAP"},       {253, "NETLINK"},
    {258, "PKTAP"},        {271, "VSOCK"},         {276, "LINUX_SLL2"},
}};

}  // namespace

bool isSupportedLinkType(uint32_t linkType) {
    switch (linkType) {
    case linktype::kNull:
    case linktype::kEthernet:
    case 12:
    case 14:
    case linktype::kRaw:
    case linktype::kLoop:
    case linktype::kLinuxSll:
    case linktype::kIpv4:
    case linktype::kIpv6:
    case linktype::kLinuxSll2:
        return true;
    default:
        return false;
    }
}

std::string linkTypeName(uint32_t linkType) {
    for (const auto& [value, name] : kLinkTypeNames) {
        if (value == linkType) {
            return name;
        }
    }
    return "LINKTYPE_" + std::to_string(linkType);
}

}  // namespace tcpscope
