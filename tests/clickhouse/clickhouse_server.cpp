#include "clickhouse/clickhouse_server.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "app/cli/run_command.hpp"
#include "sinks/http_client.hpp"

namespace tcpscope::test {

namespace {

uint16_t freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        throw std::runtime_error("no free port on 127.0.0.1");
    }
    socklen_t length = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

std::filesystem::path serverProgram() {
    if (const auto found = findInPath("clickhouse-server")) {
        return *found;
    }
    if (std::filesystem::exists("/usr/sbin/clickhouse-server")) {
        return "/usr/sbin/clickhouse-server";
    }
    throw std::runtime_error("clickhouse-server is not installed (scripts/setup-debian.sh --tests installs it)");
}

}  // namespace

ClickHouseServer& ClickHouseServer::shared() {
    static ClickHouseServer server;
    return server;
}

ClickHouseServer::ClickHouseServer() {
    char pattern[] = "/tmp/tcpscope-clickhouse-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) {
        throw std::runtime_error("cannot make a temporary folder for ClickHouse");
    }
    dir_ = pattern;
    httpPort_ = freePort();
    httpsPort_ = freePort();
    tcpPort_ = freePort();
    writeConfig();
    start();
}

ClickHouseServer::~ClickHouseServer() {
    try {
        resume();
        stop();
    } catch (...) {  // the folder goes anyway
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

void ClickHouseServer::writeConfig() const {
    const std::string d = dir_.string();
    // A self-signed certificate for 127.0.0.1, for the https port.
    const std::string certificate = fmt::format(
        "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 "
        "-keyout {0}/server.key -out {0}/server.crt 2>{0}/openssl.log",
        d);
    if (std::system(certificate.c_str()) != 0) {
        throw std::runtime_error(fmt::format("openssl could not make a certificate: see {}/openssl.log", d));
    }
    std::ofstream(dir_ / "config.xml") << fmt::format(R"(<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>{0}/server.log</log><errorlog>{0}/server.err.log</errorlog></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>{1}</http_port>
  <https_port>{3}</https_port>
  <openSSL><server><certificateFile>{0}/server.crt</certificateFile><privateKeyFile>{0}/server.key</privateKeyFile>
    <verificationMode>none</verificationMode><loadDefaultCAFile>false</loadDefaultCAFile></server></openSSL>
  <tcp_port>{2}</tcp_port>
  <path>{0}/data/</path>
  <tmp_path>{0}/tmp/</tmp_path>
  <user_files_path>{0}/user_files/</user_files_path>
  <format_schema_path>{0}/format_schemas/</format_schema_path>
  <users_config>{0}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>5368709</mark_cache_size>
  <max_concurrent_queries>20</max_concurrent_queries>
  <keep_alive_timeout>1</keep_alive_timeout>
</yandex>
)",
                                                      d, httpPort_, tcpPort_, httpsPort_);
    std::ofstream(dir_ / "users.xml") << R"(<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile>
    <quota>default</quota></default>
    <writer><password>)" << kWriterPassword << R"(</password><networks><ip>127.0.0.1</ip></networks><profile>default</profile>
    <quota>default</quota></writer></users>
  <quotas><default></default></quotas>
</yandex>
)";
}

void ClickHouseServer::start() {
    const std::string program = serverProgram().string();
    const std::string config = "--config-file=" + (dir_ / "config.xml").string();
    const std::string output = (dir_ / "stdout.log").string();
    pid_ = ::fork();
    if (pid_ == 0) {
        const int fd = ::open(output.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        ::execl(program.c_str(), program.c_str(), config.c_str(), static_cast<char*>(nullptr));
        std::_Exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    HttpClient http;
    while (std::chrono::steady_clock::now() < deadline) {
        if (http.post(fmt::format("http://127.0.0.1:{}/", httpPort_), "SELECT 1", 2).ok()) {
            return;
        }
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            throw std::runtime_error(fmt::format("clickhouse-server ended at start: see {}", dir_.string()));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    throw std::runtime_error("clickhouse-server did not answer within 60 s");
}

void ClickHouseServer::stop() {
    if (pid_ <= 0) {
        return;
    }
    ::kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, &status, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    pid_ = -1;
}

void ClickHouseServer::pause() {
    if (pid_ > 0) {
        ::kill(pid_, SIGSTOP);
    }
}

void ClickHouseServer::resume() {
    if (pid_ > 0) {
        ::kill(pid_, SIGCONT);
    }
}

std::string ClickHouseServer::url(const std::string& database) const {
    return fmt::format("clickhouse://127.0.0.1:{}/{}", httpPort_, database);
}

std::string ClickHouseServer::query(const std::string& sql) const {
    HttpClient http;
    const HttpResult result = http.post(fmt::format("http://127.0.0.1:{}/", httpPort_), sql, 30);
    if (!result.ok()) {
        throw std::runtime_error(fmt::format("{}: {} {}", sql, result.error, result.body));
    }
    return result.body;
}

uint64_t ClickHouseServer::number(const std::string& sql) const {
    return std::stoull(query(sql));
}

}  // namespace tcpscope::test
