#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>

namespace tcpscope {

/// `dir:PATH`: a directory of zstd NDJSON files.
struct DirectoryTarget {
    std::filesystem::path root;
};

/// `clickhouse://HOST:PORT/DB`: ClickHouse's HTTP interface.
struct ClickHouseTarget {
    std::string host;
    uint16_t port = 8123;
    std::string database;

    /// "http://HOST:PORT/".
    [[nodiscard]] std::string httpBase() const;
    /// The URL as given, normalised: "clickhouse://HOST:PORT/DB".
    [[nodiscard]] std::string text() const;
};

using SinkTarget = std::variant<DirectoryTarget, ClickHouseTarget>;

/// Parses `dir:PATH` or `clickhouse://HOST[:PORT]/DB` (port 8123 by default; DB letters, digits and
/// '_'). Throws std::invalid_argument with a one-line reason.
SinkTarget parseSinkTarget(const std::string& text);

/// True for a host name usable in records and file names: letters, digits, '.', '-', '_', 1 to 253
/// characters, not starting with '.'.
bool isValidHostName(const std::string& host);

/// Where a ClickHouse sink spools by default: $XDG_STATE_HOME/tcpscope/spool/HOST_PORT_DB (or
/// ~/.local/state/...; /tmp/tcpscope-spool-UID/... without a home).
std::filesystem::path defaultSpoolDir(const ClickHouseTarget& target);

}  // namespace tcpscope
