#include "live/capture_interface.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <sys/socket.h>

#include <array>
#include <memory>

#include "live/live_error.hpp"
#include "text/valid_utf8.hpp"

namespace tcpscope {

namespace {

std::string addressText(const sockaddr* address) {
    std::array<char, INET6_ADDRSTRLEN> text{};
    if (address == nullptr) {
        return {};
    }
    if (address->sa_family == AF_INET) {
        const auto* ipv4 = reinterpret_cast<const sockaddr_in*>(address);
        return inet_ntop(AF_INET, &ipv4->sin_addr, text.data(), text.size()) != nullptr ? text.data() : "";
    }
    if (address->sa_family == AF_INET6) {
        const auto* ipv6 = reinterpret_cast<const sockaddr_in6*>(address);
        return inet_ntop(AF_INET6, &ipv6->sin6_addr, text.data(), text.size()) != nullptr ? text.data() : "";
    }
    return {};  // link-layer (AF_PACKET) addresses are not shown
}

}  // namespace

std::vector<CaptureInterface> listCaptureInterfaces() {
    std::array<char, PCAP_ERRBUF_SIZE> error{};
    pcap_if_t* devices = nullptr;
    if (pcap_findalldevs(&devices, error.data()) != 0) {
        throw LiveCaptureError(LiveErrorKind::Other, std::string("cannot list the capture interfaces: ") + error.data());
    }
    const std::unique_ptr<pcap_if_t, void (*)(pcap_if_t*)> owned(devices, pcap_freealldevs);
    std::vector<CaptureInterface> interfaces;
    for (const pcap_if_t* device = devices; device != nullptr; device = device->next) {
        CaptureInterface interface;
        // Shown and written as JSON: valid UTF-8 (a name is typed back by the user, never read from here).
        interface.name = validUtf8(device->name);
        interface.description = validUtf8(device->description != nullptr ? device->description : "");
        for (const pcap_addr_t* address = device->addresses; address != nullptr; address = address->next) {
            if (std::string text = addressText(address->addr); !text.empty()) {
                interface.addresses.push_back(std::move(text));
            }
        }
        interface.up = (device->flags & PCAP_IF_UP) != 0;
        interface.running = (device->flags & PCAP_IF_RUNNING) != 0;
        interface.loopback = (device->flags & PCAP_IF_LOOPBACK) != 0;
        interface.wireless = (device->flags & PCAP_IF_WIRELESS) != 0;
        interface.any = interface.name == "any";
        interfaces.push_back(std::move(interface));
    }
    return interfaces;
}

}  // namespace tcpscope
