#include "export/sink_spec.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <stdexcept>

namespace tcpscope {

namespace {

bool isNameCharacter(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

ClickHouseTarget parseClickHouse(const std::string& text, std::string_view rest) {
    const size_t slash = rest.find('/');
    if (slash == std::string_view::npos || slash + 1 >= rest.size()) {
        throw std::invalid_argument(fmt::format("{}: no database: use clickhouse://HOST:PORT/DB", text));
    }
    const std::string_view hostPort = rest.substr(0, slash);
    ClickHouseTarget target;
    target.database = std::string(rest.substr(slash + 1));
    if (!std::all_of(target.database.begin(), target.database.end(), isNameCharacter)) {
        throw std::invalid_argument(
            fmt::format("{}: database '{}' may hold only letters, digits and '_'", text, target.database));
    }
    const size_t colon = hostPort.rfind(':');
    target.host = std::string(hostPort.substr(0, colon));
    if (colon != std::string_view::npos) {
        const std::string_view portText = hostPort.substr(colon + 1);
        unsigned port = 0;
        const auto [end, error] = std::from_chars(portText.data(), portText.data() + portText.size(), port);
        if (error != std::errc() || end != portText.data() + portText.size() || port == 0 || port > 65535) {
            throw std::invalid_argument(fmt::format("{}: '{}' is not a port", text, portText));
        }
        target.port = static_cast<uint16_t>(port);
    }
    if (target.host.empty() || !std::all_of(target.host.begin(), target.host.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' || c == '_';
        })) {
        throw std::invalid_argument(fmt::format("{}: '{}' is not a host name or IPv4 address", text, target.host));
    }
    return target;
}

}  // namespace

std::string ClickHouseTarget::httpBase() const {
    return fmt::format("http://{}:{}/", host, port);
}

std::string ClickHouseTarget::text() const {
    return fmt::format("clickhouse://{}:{}/{}", host, port, database);
}

SinkTarget parseSinkTarget(const std::string& text) {
    constexpr std::string_view kDir = "dir:";
    constexpr std::string_view kClickHouse = "clickhouse://";
    if (text.starts_with(kDir)) {
        if (text.size() == kDir.size()) {
            throw std::invalid_argument(fmt::format("{}: no folder after 'dir:'", text));
        }
        return DirectoryTarget{text.substr(kDir.size())};
    }
    if (text.starts_with(kClickHouse)) {
        return parseClickHouse(text, std::string_view(text).substr(kClickHouse.size()));
    }
    throw std::invalid_argument(fmt::format("{}: not a sink: use dir:PATH or clickhouse://HOST:PORT/DB", text));
}

bool isValidHostName(const std::string& host) {
    return !host.empty() && host.size() <= 253 && host.front() != '.' &&
           std::all_of(host.begin(), host.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' || c == '_';
           });
}

std::filesystem::path defaultSpoolDir(const ClickHouseTarget& target) {
    std::filesystem::path base;
    if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && *state == '/') {
        base = state;
    } else if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/') {
        base = std::filesystem::path(home) / ".local" / "state";
    } else {
        return std::filesystem::path(fmt::format("/tmp/tcpscope-spool-{}", getuid())) /
               fmt::format("{}_{}_{}", target.host, target.port, target.database);
    }
    return base / "tcpscope" / "spool" / fmt::format("{}_{}_{}", target.host, target.port, target.database);
}

}  // namespace tcpscope
