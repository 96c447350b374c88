#pragma once
// A real ClickHouse server (Debian's clickhouse-server) for the tests: on 127.0.0.1, free ports, a
// temporary data folder and a config of its own; never the system's service. One per test program.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace tcpscope::test {

class ClickHouseServer {
public:
    /// The server shared by the test program, started at the first call. Fails the test (throws) if
    /// clickhouse-server is missing or does not come up.
    static ClickHouseServer& shared();

    ~ClickHouseServer();
    ClickHouseServer(const ClickHouseServer&) = delete;
    ClickHouseServer& operator=(const ClickHouseServer&) = delete;

    /// Starts it (again, on the same ports and data) and waits until it answers.
    void start();
    /// Stops it (SIGTERM, then SIGKILL after 20 s) and waits for the process to end.
    void stop();
    /// Freezes and thaws it (SIGSTOP, SIGCONT): a server that takes requests and answers none.
    void pause();
    void resume();

    [[nodiscard]] uint16_t httpPort() const { return httpPort_; }
    [[nodiscard]] uint16_t httpsPort() const { return httpsPort_; }
    /// The server's self-signed certificate (for 127.0.0.1), PEM: the CA to check it with.
    [[nodiscard]] std::string certificateFile() const { return (dir_ / "server.crt").string(); }
    /// A user besides `default`, with a password (kWriterPassword).
    static constexpr const char* kWriter = "writer";
    static constexpr const char* kWriterPassword = "w@ter:proof";
    /// "clickhouse://127.0.0.1:PORT/database".
    [[nodiscard]] std::string url(const std::string& database) const;
    /// Runs a query; returns the answer's body. Throws with the server's message on an error.
    [[nodiscard]] std::string query(const std::string& sql) const;
    /// A query answering one number.
    [[nodiscard]] uint64_t number(const std::string& sql) const;

private:
    ClickHouseServer();
    void writeConfig() const;

    std::filesystem::path dir_;
    uint16_t httpPort_ = 0;
    uint16_t httpsPort_ = 0;
    uint16_t tcpPort_ = 0;
    pid_t pid_ = -1;
};

}  // namespace tcpscope::test
