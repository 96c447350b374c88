#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>

#include "sinks/http_client.hpp"

namespace tcpscope {

/// `dir:PATH`: a directory of zstd NDJSON files.
struct DirectoryTarget {
    std::filesystem::path root;
};

/// `clickhouse://[USER[:PASSWORD]@]HOST[:PORT]/DB[?secure=true[&ca=PATH]]`: ClickHouse's HTTP
/// interface, as USER (HTTP basic authentication) over https when secure.
struct ClickHouseTarget {
    std::string host;
    uint16_t port = 8123;  ///< 8443 by default when secure
    std::string database;
    std::string user;      ///< empty: the server's `default` user, without a password
    std::string password;  ///< from the URL or $CLICKHOUSE_PASSWORD; never written out
    bool secure = false;   ///< https
    std::string caFile;    ///< secure: the CA that signed the server's certificate (else the system's)

    /// "http://HOST:PORT/" (https when secure).
    [[nodiscard]] std::string httpBase() const;
    /// The URL as given, normalised and without the password: "clickhouse://[USER@]HOST:PORT/DB[?secure=true...]".
    [[nodiscard]] std::string text() const;
    /// What an HttpClient needs to reach it.
    [[nodiscard]] HttpAccess access() const { return {user, password, caFile}; }
};

using SinkTarget = std::variant<DirectoryTarget, ClickHouseTarget>;

/// Parses `dir:PATH` or `clickhouse://[USER[:PASSWORD]@]HOST[:PORT]/DB[?secure=true[&ca=PATH]]` (port
/// 8123 by default, 8443 when secure; DB letters, digits and '_'; the password percent-encoded, or
/// from $CLICKHOUSE_PASSWORD when the URL names a user without one). Throws std::invalid_argument
/// with a one-line reason that never shows the password.
SinkTarget parseSinkTarget(const std::string& text);

/// `target` as it may be shown (in reports, messages, settings): "dir:PATH" or ClickHouseTarget::text().
std::string sinkTargetText(const SinkTarget& target);

/// True for a host name usable in records and file names: letters, digits, '.', '-', '_', 1 to 253
/// characters, not starting with '.'.
bool isValidHostName(const std::string& host);

/// Where a ClickHouse sink spools by default: $XDG_STATE_HOME/tcpscope/spool/HOST_PORT_DB (or
/// ~/.local/state/...; /tmp/tcpscope-spool-UID/... without a home).
std::filesystem::path defaultSpoolDir(const ClickHouseTarget& target);

}  // namespace tcpscope
