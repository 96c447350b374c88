#include "sinks/sink_spec.hpp"

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

// Where the USER[:PASSWORD] of a clickhouse:// URL's rest ends: its last '@' before the path (a
// password may hold an unencoded '@'), or npos.
size_t userInfoEnd(std::string_view rest) {
    return rest.rfind('@', rest.find('/'));
}

// `text` with the password of a clickhouse:// URL replaced by "***", for messages.
std::string withoutPassword(const std::string& text, std::string_view rest) {
    const size_t at = userInfoEnd(rest);
    const size_t colon = rest.substr(0, at).find(':');
    if (at == std::string_view::npos || colon == std::string_view::npos) {
        return text;
    }
    const size_t start = text.size() - rest.size() + colon + 1;
    return text.substr(0, start) + "***" + text.substr(start + (at - colon - 1));
}

// %XX escapes decoded (a password may hold '@', ':' or '/'); throws on a broken escape.
std::string percentDecoded(std::string_view text) {
    std::string decoded;
    for (size_t at = 0; at < text.size(); ++at) {
        if (text[at] != '%') {
            decoded += text[at];
            continue;
        }
        unsigned value = 0;
        const char* from = text.data() + at + 1;
        if (at + 2 >= text.size() || std::from_chars(from, from + 2, value, 16).ptr != from + 2) {
            throw std::invalid_argument("a '%' not followed by two hex digits");
        }
        decoded += static_cast<char>(value);
        at += 2;
    }
    return decoded;
}

// USER[:PASSWORD] before the '@' of the URL's authority.
void parseUser(std::string_view userInfo, ClickHouseTarget& target) {
    const size_t colon = userInfo.find(':');
    target.user = percentDecoded(userInfo.substr(0, colon));
    if (target.user.empty()) {
        throw std::invalid_argument("an empty user name before '@'");
    }
    if (colon != std::string_view::npos) {
        target.password = percentDecoded(userInfo.substr(colon + 1));
    } else if (const char* password = std::getenv("CLICKHOUSE_PASSWORD"); password != nullptr) {
        target.password = password;
    }
}

// secure=true|false and ca=PATH, '&'-separated.
void parseOptions(std::string_view options, ClickHouseTarget& target) {
    while (!options.empty()) {
        const std::string_view option = options.substr(0, options.find('&'));
        options.remove_prefix(std::min(options.size(), option.size() + 1));
        if (option == "secure=true" || option == "secure=1") {
            target.secure = true;
        } else if (option == "secure=false" || option == "secure=0") {
            target.secure = false;
        } else if (option.starts_with("ca=") && option.size() > 3) {
            target.caFile = percentDecoded(option.substr(3));
        } else {
            throw std::invalid_argument(fmt::format("unknown option '{}' (secure=true, ca=PATH)", option));
        }
    }
}

void parseHostPort(std::string_view hostPort, ClickHouseTarget& target) {
    const size_t colon = hostPort.rfind(':');
    target.host = std::string(hostPort.substr(0, colon));
    if (colon != std::string_view::npos) {
        const std::string_view portText = hostPort.substr(colon + 1);
        unsigned port = 0;
        const auto [end, error] = std::from_chars(portText.data(), portText.data() + portText.size(), port);
        if (error != std::errc() || end != portText.data() + portText.size() || port == 0 || port > 65535) {
            throw std::invalid_argument(fmt::format("'{}' is not a port", portText));
        }
        target.port = static_cast<uint16_t>(port);
    } else if (target.secure) {
        target.port = 8443;
    }
    if (target.host.empty() || !std::all_of(target.host.begin(), target.host.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' || c == '_';
        })) {
        throw std::invalid_argument(fmt::format("'{}' is not a host name or IPv4 address", target.host));
    }
}

ClickHouseTarget parseClickHouse(const std::string& text, std::string_view rest) {
    ClickHouseTarget target;
    try {
        const size_t question = rest.find('?');
        if (question != std::string_view::npos) {
            parseOptions(rest.substr(question + 1), target);
            rest = rest.substr(0, question);
        }
        const size_t at = userInfoEnd(rest);
        if (at != std::string_view::npos) {
            parseUser(rest.substr(0, at), target);
            rest.remove_prefix(at + 1);
        }
        const size_t slash = rest.find('/');
        if (slash == std::string_view::npos || slash + 1 >= rest.size()) {
            throw std::invalid_argument("no database: use clickhouse://HOST:PORT/DB");
        }
        target.database = std::string(rest.substr(slash + 1));
        if (!std::all_of(target.database.begin(), target.database.end(), isNameCharacter)) {
            throw std::invalid_argument(
                fmt::format("database '{}' may hold only letters, digits and '_'", target.database));
        }
        parseHostPort(rest.substr(0, slash), target);
    } catch (const std::invalid_argument& error) {
        constexpr std::string_view kScheme = "clickhouse://";
        throw std::invalid_argument(
            fmt::format("{}: {}", withoutPassword(text, std::string_view(text).substr(kScheme.size())), error.what()));
    }
    return target;
}

}  // namespace

std::string ClickHouseTarget::httpBase() const {
    return fmt::format("{}://{}:{}/", secure ? "https" : "http", host, port);
}

std::string ClickHouseTarget::text() const {
    std::string options;
    if (secure) {
        options = caFile.empty() ? "?secure=true" : fmt::format("?secure=true&ca={}", caFile);
    }
    return fmt::format("clickhouse://{}{}:{}/{}{}", user.empty() ? "" : user + "@", host, port, database, options);
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

std::string sinkTargetText(const SinkTarget& target) {
    if (const auto* dir = std::get_if<DirectoryTarget>(&target)) {
        return "dir:" + dir->root.string();
    }
    return std::get<ClickHouseTarget>(target).text();
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
