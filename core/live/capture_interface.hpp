#pragma once
#include <string>
#include <vector>

namespace tcpscope {

/// A device that libpcap can capture on, as pcap_findalldevs lists it.
struct CaptureInterface {
    std::string name;                    ///< e.g. "eth0", "lo", "any"
    std::string description;             ///< libpcap's description, often empty on Linux
    std::vector<std::string> addresses;  ///< IPv4 and IPv6 addresses, e.g. "127.0.0.1", "::1"
    bool up = false;
    bool running = false;
    bool loopback = false;
    bool wireless = false;
    bool any = false;                    ///< the pseudo-device that captures on every interface
};

/// Every capture device, in libpcap's order (which puts the ones that are up and running first).
/// Throws LiveCaptureError if libpcap cannot list them.
std::vector<CaptureInterface> listCaptureInterfaces();

}  // namespace tcpscope
