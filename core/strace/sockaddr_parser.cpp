#include "strace/sockaddr_parser.hpp"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <array>
#include <cstring>

#include "strace/text_scan.hpp"

namespace tcpscope {
namespace {

using strace_text::trim;

/// The text between `key` and the next '"' in `text`, where `key` ends with an opening quote.
std::string_view quotedAfter(std::string_view text, std::string_view key) {
    const size_t at = text.find(key);
    if (at == std::string_view::npos) {
        return {};
    }
    const size_t start = at + key.size();
    const size_t end = text.find('"', start);
    return end == std::string_view::npos ? std::string_view() : text.substr(start, end - start);
}

}  // namespace

uint8_t addressFamilyFromName(std::string_view name) {
    name = trim(name);
    if (name.size() > 3 && (name.substr(0, 3) == "AF_" || name.substr(0, 3) == "PF_")) {
        const std::string_view suffix = name.substr(3);
        if (suffix == "INET") {
            return AF_INET;
        }
        if (suffix == "INET6") {
            return AF_INET6;
        }
        if (suffix == "UNIX" || suffix == "LOCAL") {
            return AF_UNIX;
        }
        if (suffix == "NETLINK") {
            return AF_NETLINK;
        }
        if (suffix == "PACKET") {
            return AF_PACKET;
        }
        if (suffix == "UNSPEC") {
            return AF_UNSPEC;
        }
        return UINT8_MAX;  // a family the alignment never needs to tell apart
    }
    if (const auto number = strace_text::parseInteger(name); number && *number > 0 && *number < UINT8_MAX) {
        return static_cast<uint8_t>(*number);
    }
    return 0;
}

std::optional<IpAddress> parseIpAddressText(std::string_view text) {
    // inet_pton wants a terminated string; the longest IPv6 text (with an IPv4 tail) is 45 bytes.
    std::array<char, INET6_ADDRSTRLEN + 1> terminated{};
    if (text.empty() || text.size() >= terminated.size()) {
        return std::nullopt;
    }
    std::memcpy(terminated.data(), text.data(), text.size());
    std::array<uint8_t, 16> bytes{};
    if (text.find(':') == std::string_view::npos) {
        if (inet_pton(AF_INET, terminated.data(), bytes.data()) != 1) {
            return std::nullopt;
        }
        return IpAddress::fromV4(bytes.data());
    }
    if (inet_pton(AF_INET6, terminated.data(), bytes.data()) != 1) {
        return std::nullopt;
    }
    return IpAddress::fromV6(bytes.data());
}

std::optional<Endpoint> parseEndpointText(std::string_view text) {
    text = trim(text);
    std::string_view addressText;
    std::string_view portText;
    if (!text.empty() && text[0] == '[') {
        const size_t close = text.find(']');
        if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
            return std::nullopt;
        }
        addressText = text.substr(1, close - 1);
        portText = text.substr(close + 2);
    } else {
        const size_t colon = text.rfind(':');
        if (colon == std::string_view::npos) {
            return std::nullopt;
        }
        addressText = text.substr(0, colon);
        portText = text.substr(colon + 1);
    }
    const auto port = strace_text::parseInteger(portText);
    const auto address = parseIpAddressText(addressText);
    if (!port || *port < 0 || *port > UINT16_MAX || !address) {
        return std::nullopt;
    }
    return Endpoint{*address, static_cast<uint16_t>(*port)};
}

SocketAddress parseSocketAddress(std::string_view text) {
    SocketAddress result;
    text = trim(text);
    if (text.empty() || text[0] != '{') {
        return result;
    }
    const size_t familyAt = text.find("sa_family=");
    if (familyAt == std::string_view::npos) {
        return result;
    }
    std::string_view familyText = text.substr(familyAt + 10);
    familyText = familyText.substr(0, familyText.find_first_of(",}"));
    result.family = addressFamilyFromName(familyText);

    std::optional<uint64_t> port;
    std::string_view addressText;
    if (result.family == AF_INET) {
        port = strace_text::unsignedAfter(text, "sin_port=htons(");
        addressText = quotedAfter(text, "inet_addr(\"");
    } else if (result.family == AF_INET6) {
        port = strace_text::unsignedAfter(text, "sin6_port=htons(");
        addressText = quotedAfter(text, "inet_pton(AF_INET6, \"");
    } else {
        return result;
    }
    const auto address = parseIpAddressText(addressText);
    if (port && *port <= UINT16_MAX && address) {
        result.hasEndpoint = true;
        result.endpoint = Endpoint{*address, static_cast<uint16_t>(*port)};
    }
    return result;
}

}  // namespace tcpscope
